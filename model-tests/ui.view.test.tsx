import {
  type AnyRouter,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, createActor, fromPromise } from 'xstate';
import { type ProfileResult, sessionMachine } from '../machines/session';
import { connectUi } from '../machines/ui';
import { type AppActors, AppContext } from '../src/views/AppContext';
import { RootLayout } from '../src/views/shell/RootLayout';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { fakeToken, makeUser } from './fixtures';
import { coveringPaths, flush, type PathStep, runPath, unusedViewless, type ViewlessEvent } from './harness';
import { uiModel } from './ui.model';

/**
 * The ui paths through the shell (header, menus, sign-in modal, cookie banner, toasts). Menus close
 * on Escape, on a pointer outside them, or on a route change, taking turns where they can.
 */
let router: AnyRouter;
let turn = 0;

async function perform(step: PathStep, actor: AnyActorRef) {
  switch (step.event.type) {
    case 'ui.nav.toggle':
      return clickFirst('Menu');
    case 'ui.user.toggle':
      return clickFirst('Account menu');
    case 'ui.menus.close': {
      const open = connectUi(actor.getSnapshot(), () => {});
      // With the sign-in modal open, Escape and an outside pointer belong to the modal.
      if ((open.navMenuOpened || open.userMenuOpened) && !open.showSignup) {
        turn += 1;
        if (turn % 2) fireEvent.keyDown(document, { key: 'Escape' });
        else fireEvent.pointerDown(screen.getByRole('main'));
        return true;
      }
      // A route change closes every menu, the dashboard's too (RootLayout): a link, the back button.
      const to = router.state.location.pathname === '/' ? '/elsewhere' : '/';
      // Not awaited inside act(): React 18 renders the new route only once the act() scope ends.
      await act(async () => {
        void router.navigate({ to: to as never });
        await flush();
      });
      return true;
    }
    case 'ui.signup.hide':
      fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
      return true;
    case 'ui.cookies.accept':
      return clickFirst('Accept');
    case 'ui.toast.dismiss':
      return clickFirst('Dismiss notification');
    default:
      return false;
  }
}

/** User events the shell has no control for (the harness sends them; see docs/testing.md). */
const viewless: ViewlessEvent[] = [
  {
    event: 'ui.signup.show',
    reason:
      'raised by protected actions on pages (buy on the item page, report on a storefront, NftActions), ' +
      'not by the shell',
  },
  {
    event: 'ui.toast.show',
    reason: 'raised by programs (saved, published, errors in runtime.ts) and by Share on a storefront page',
  },
  {
    event: 'ui.dashboardMenu.toggle',
    reason:
      'no view raises it: the dashboard has no mobile menu button (its menu wraps on phones), and the ' +
      "shell is hidden on dashboard paths; the ui machine keeps whether the dashboard's mobile menu is open",
  },
];

async function check(expected: AnyMachineSnapshot) {
  const s = connectUi(expected as never, () => {});
  expect(!!screen.queryByRole('navigation', { name: 'Main menu' })).toBe(s.navMenuOpened);
  expect(!!screen.queryByRole('menu', { name: 'Account' })).toBe(s.userMenuOpened);
  expect(!!screen.queryByRole('region', { name: 'Cookies' })).toBe(!s.cookiesAccepted);
  if (s.showSignup) expect(await screen.findByRole('dialog', { name: 'Sign in to continue' })).toBeTruthy();
  else expect(screen.queryByRole('dialog')).toBeNull();
  const toasts = s.toasts.map((t) => t.text);
  for (const text of toasts) expect(screen.getByText(text)).toBeTruthy();
  if (toasts.length === 0) expect(screen.queryByRole('button', { name: 'Dismiss notification' })).toBeNull();
}

async function mount(ui: AnyActorRef) {
  const session = createActor(
    sessionMachine.provide({
      actors: {
        fetchProfile: fromPromise<ProfileResult, { userId: string }>(async () => ({
          status: 'ok',
          user: makeUser(),
        })),
      },
    }),
    { input: { token: fakeToken({ userId: 'u1' }) } },
  ).start();
  const root = createRootRoute({ component: RootLayout });
  router = createRouter({
    routeTree: root.addChildren([
      createRoute({ getParentRoute: () => root, path: '/', component: () => <p>Home page</p> }),
      createRoute({ getParentRoute: () => root, path: '/elsewhere', component: () => <p>Another page</p> }),
    ]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  const app = { session, ui, flows: {} } as unknown as AppActors;
  render(
    <AppContext.Provider value={app}>
      <RouterProvider router={router as never} />
    </AppContext.Provider>,
  );
  await screen.findByText('Home page');
  // The logged-in header's account menu loads its own code (Header.tsx).
  await screen.findByRole('button', { name: 'Account menu' });
  await act(flush);
}

describe('ui paths through the shell', () => {
  for (const path of coveringPaths(uiModel)) {
    it(path.description, () =>
      runPath(uiModel, path, { mount, perform, viewless, check, wrap: (fn) => act(fn) }),
    );
  }
  it('has no unused viewless events', () => expect(unusedViewless(viewless)).toEqual([]));
  afterAll(() => flushCoverage('view'));
});
