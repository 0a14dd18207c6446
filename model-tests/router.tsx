import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';

/** Renders `node` inside a memory-history router, for views with links. */
export async function renderWithRouter(node: () => ReactNode) {
  const root = createRootRoute({ component: () => <>{node()}</> });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ['/'] }) });
  await act(async () => {
    render(<RouterProvider router={router as never} />);
    await router.load();
  });
}
