import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DashboardLayout } from '../../../src/views/dashboard/DashboardLayout';

/**
 * The dashboard inside the shell (RootLayout's `main`, reduced here to it): a page has exactly one
 * `main` landmark, so the dashboard's panel is not a second one.
 */
describe('the dashboard layout', () => {
  it('adds no main landmark to the shell’s one', async () => {
    const root = createRootRoute({
      component: () => (
        <main>
          <Outlet />
        </main>
      ),
    });
    const authenticated = createRoute({ getParentRoute: () => root, id: '_authenticated' });
    const dashboard = createRoute({
      getParentRoute: () => authenticated,
      path: 'dashboard',
      loader: () => ({ storefront: null }),
      component: DashboardLayout,
    });
    const panel = createRoute({
      getParentRoute: () => dashboard,
      path: 'help',
      component: () => <h1>Help</h1>,
    });
    const router = createRouter({
      routeTree: root.addChildren([authenticated.addChildren([dashboard.addChildren([panel])])]),
      history: createMemoryHistory({ initialEntries: ['/dashboard/help'] }),
    });
    await act(async () => {
      render(<RouterProvider router={router as never} />);
      await router.load();
    });
    expect(await screen.findByRole('heading', { name: 'Help' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Dashboard' })).toBeTruthy();
    expect(screen.getAllByRole('main')).toHaveLength(1);
  });
});
