import { createMemoryHistory } from '@tanstack/react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnyActorRef, createActor, fromPromise } from 'xstate';
import { adminListOrder } from '#domain/admin';
import { type ProfileResult, type RefreshResult, sessionMachine } from '../../../machines/session';
import { fakeToken, makeUser } from '../../../model-tests/fixtures';
import { createAppRouter } from '../../../src/router';
import type { AppActors } from '../../../src/views/AppContext';

/**
 * The route tree's guards and loaders, run for real against a session actor and counting service
 * fakes (no screen is rendered: `router.load()` runs the guards and loaders of the location).
 */
const storefront = { id: 'sf-1', name: 'Harbor', vanityUrl: 'harbor' };
const empty = { results: [], total: 0 };

function app(session: { token?: string; refresh?: () => Promise<RefreshResult> }) {
  const calls = { myStorefront: 0 };
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        fetchProfile: fromPromise<ProfileResult, { userId: string }>(async () => ({
          status: 'ok',
          user: makeUser(),
        })),
        refreshSession: fromPromise<RefreshResult>(
          () => session.refresh?.() ?? Promise.reject(new Error('no')),
        ),
      },
    }),
    { input: { token: session.token ?? null } },
  ).start();
  const machine = async () => ({}) as never;
  const flows = new Proxy({}, { get: () => machine });
  const actors = {
    session: actor,
    ui: {} as AnyActorRef,
    flows,
    walletAvailable: async () => false,
    catalog: {
      myStorefront: async () => {
        calls.myStorefront += 1;
        return storefront;
      },
      blueprints: async () => empty,
    },
    sales: { list: async () => ({ ...empty, page: 1, pageSize: 10 }) },
    nfts: {
      ownedBy: async () => empty,
      get: async (id: string) => ({
        id,
        blueprintId: 7,
        blueprint: null,
        metadata: {},
        seriesNumber: 1,
        shareImage: { url: `/og/nft/${id}.png?v=0123456789abcdef`, width: 1200, height: 630 },
      }),
      history: async () => ({ results: [] }),
    },
  } as unknown as AppActors;
  return { actors, calls, session: actor };
}

let stop: (() => void) | undefined;
afterEach(() => stop?.());

async function open(actors: AppActors, path: string) {
  const router = createAppRouter(actors);
  router.update({ ...router.options, history: createMemoryHistory({ initialEntries: [path] }) });
  await router.load();
  return router;
}

describe('the authenticated layout', () => {
  for (const path of [
    '/profile/collection',
    '/settings/account',
    '/dashboard/sales',
    '/payouts',
    '/admin',
    '/coinbasecanceled/charge-1',
    '/checkoutcomfailed/order-1',
  ]) {
    it(`sends a visitor who is not logged in from ${path} to sign in, remembering where they were headed`, async () => {
      const { actors, session } = app({});
      stop = () => session.stop();
      const router = await open(actors, path);
      expect(router.state.location.pathname).toBe('/auth/connect');
      // /admin opens its first list first.
      expect(session.getSnapshot().context.loginRedirect).toMatch(
        path === '/admin' ? `/admin/${adminListOrder[0]}` : path,
      );
    });
  }

  it('lets a signed-in user in', async () => {
    const { actors, session } = app({ token: fakeToken({ userId: 'u1' }) });
    stop = () => session.stop();
    const router = await open(actors, '/dashboard/preview');
    expect(router.state.location.pathname).toBe('/dashboard/preview');
  });

  it('waits for a session that renews an expired token before it decides', async () => {
    const expired = fakeToken({ userId: 'u1', exp: Math.floor(Date.now() / 1000) - 60 });
    const { actors, session } = app({
      token: expired,
      refresh: async () => {
        await new Promise((r) => setTimeout(r, 20));
        return { token: fakeToken({ userId: 'u1' }) };
      },
    });
    stop = () => session.stop();
    const router = await open(actors, '/settings/account');
    expect(router.state.location.pathname).toBe('/settings/account');
  });
});

describe('the dashboard', () => {
  it('fetches the storefront once per visit and shares it with the layout and the panel', async () => {
    const { actors, calls, session } = app({ token: fakeToken({ userId: 'u1' }) });
    stop = () => session.stop();
    const router = await open(actors, '/dashboard/sales');
    expect(router.state.location.pathname).toBe('/dashboard/sales');
    expect(calls.myStorefront).toBe(1);
    const layout = router.state.matches.find((m) => m.routeId === '/_authenticated/dashboard');
    expect(layout?.loaderData).toEqual({ storefront });
    await router.navigate({ to: '/dashboard/preview' });
    expect(calls.myStorefront).toBe(2);
  });
});

describe('an NFT page', () => {
  it('shows its Details tab at /nft/{id} itself, with the purchase dialog a top-up returns to', async () => {
    const { actors, session } = app({});
    stop = () => session.stop();
    const listing = 'a1b2c3d4-0000-4000-8000-000000000001';
    const topup = '5c4b3a29-1807-4f6e-9d5c-4b3a2918f7e6';
    const router = await open(actors, `/nft/4711?listing=${listing}&topup=${topup}&other=1`);
    expect(router.state.location.pathname).toBe('/nft/4711');
    expect(router.state.location.search).toMatchObject({ listing, topup });
  });
});
