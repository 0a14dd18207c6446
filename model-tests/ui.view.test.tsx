import {
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
import { interfaceState } from '../machines/ui';
import { type AppActors, AppContext } from '../src/views/AppContext';
import { RootLayout } from '../src/views/shell/RootLayout';
import { flushCoverage } from './coverage-store';
import { fakeToken, makeUser } from './fixtures';
import { flush, generatePaths, type PathStep, runPath } from './harness';
import { uiModel } from './ui.model';

/**
 * The ui paths through the shell (header, menus, sign-in modal, cookie banner, toasts). Events that no
 * screen of this issue raises yet (the dashboard's mobile menu, protected actions opening the sign-in
 * modal, a program showing a toast) go to the actor.
 */
async function perform(step: PathStep, actor: AnyActorRef) {
  switch (step.event.type) {
    case 'ui.nav.toggle':
      fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
      return true;
    case 'ui.user.toggle':
      fireEvent.click(screen.getByRole('button', { name: 'Account menu' }));
      return true;
    case 'ui.menus.close': {
      // Escape closes the header's menus; with the sign-in modal open it closes the modal first, and the
      // dashboard's own menu arrives with the dashboard.
      const open = interfaceState(actor.getSnapshot());
      if ((!open.navMenuOpened && !open.userMenuOpened) || open.showSignup) return false;
      fireEvent.keyDown(document, { key: 'Escape' });
      return true;
    }
    case 'ui.signup.hide':
      fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
      return true;
    case 'ui.cookies.accept':
      fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
      return true;
    case 'ui.toast.dismiss':
      fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
      return true;
    default:
      return false;
  }
}

async function check(expected: AnyMachineSnapshot) {
  const s = interfaceState(expected);
  expect(!!screen.queryByRole('navigation', { name: 'Main menu' })).toBe(s.navMenuOpened);
  expect(!!screen.queryByRole('menu', { name: 'Account' })).toBe(s.userMenuOpened);
  expect(!!screen.queryByRole('region', { name: 'Cookies' })).toBe(!s.cookiesAccepted);
  if (s.showSignup) expect(await screen.findByRole('dialog', { name: 'Sign in to continue' })).toBeTruthy();
  else expect(screen.queryByRole('dialog')).toBeNull();
  const toasts = (expected.context.toasts as Array<{ text: string }>).map((t) => t.text);
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
  const router = createRouter({
    routeTree: root.addChildren([
      createRoute({ getParentRoute: () => root, path: '/', component: () => <p>Home page</p> }),
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
  await act(flush);
}

describe('ui paths through the shell', () => {
  for (const path of generatePaths(uiModel)) {
    it(path.description, () => runPath(uiModel, path, { mount, perform, check, wrap: (fn) => act(fn) }));
  }
  afterAll(() => flushCoverage('view'));
});
