import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise } from 'xstate';
import type { HistoryItem } from '#domain/catalog';
import type { NftJson } from '#domain/nft';
import type { TopupChargeRequest } from '#domain/ports/checkout';
import type { CoinbaseChargeJson, CoinbaseChargeStatus } from '#domain/schemas/crypto';
import { buyListingMachine } from '../../../machines/buyListing';
import { HOSTED_URL, topupCharge } from '../../../model-tests/cryptoTopup.model';
import { makeBlueprint, makeUser } from '../../../model-tests/fixtures';
import type { AppActors } from '../../../src/views/AppContext';
import { AppContext } from '../../../src/views/AppContext';
import { HistoryList } from '../../../src/views/nft/HistoryList';
import type { NftMachines } from '../../../src/views/nft/NftActions';
import { NftPage } from '../../../src/views/nft/NftPage';

/**
 * One NFT's page (/nft/{token id}): its History tab lists the mint and every purchase; a top-up
 * opened from its buy dialog comes back to it with the dialog open on the same listing.
 */

const NOW = new Date('2026-11-22T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();

const NFT: NftJson = {
  id: '4711',
  blueprint: makeBlueprint({ title: 'Night Market', state: 'active' }),
  blueprintId: '1042',
  seriesNumber: 3,
  serialNumber: 3,
  metadata: { title: 'Night Market' },
  status: 'forSale',
  owner: { id: 'u9', username: 'theo_b', avatarUrl: null, wallet: { walletAddress: '0xf3fcd2c1a78f5eee' } },
  activeSaleListing: {
    id: 'a1b2c3d4-0000-4000-8000-000000000001',
    price: 4000,
    blockchainListingId: '94711',
  },
  nftPurchase: { amount: 2500, purchasedOn: hoursAgo(30) },
  shareImage: { url: '/og/nft/4711.png?v=0123456789abcdef', width: 1200, height: 630 },
};

const HISTORY: HistoryItem[] = [
  {
    id: 'p2',
    type: 'purchase',
    user: { name: 'theo_b', avatarUrl: '/media/uploads/u9/avatar.png', seed: '0xf3fcd2c1a78f5eee' },
    seriesNumber: 3,
    createdAt: hoursAgo(3),
  },
  {
    id: 'p1',
    type: 'purchase',
    user: { name: 'mina_kato', avatarUrl: null, seed: '0x179b6b1cb6755e31' },
    seriesNumber: 3,
    createdAt: hoursAgo(30),
  },
  {
    id: 'creation-4711',
    type: 'creation',
    user: { name: 'Night Shop', avatarUrl: null, seed: '0x01cf0e2f2f715450' },
    seriesNumber: 3,
    createdAt: hoursAgo(30),
  },
];

/** A stand-in for the session actor. */
function sessionOf(user: ReturnType<typeof makeUser> | null) {
  return createActor(createMachine({ initial: 'on', context: { user }, states: { on: {} } })).start();
}

const machines = { buyListing: buyListingMachine } as unknown as NftMachines;

async function renderNftPage(
  path: string,
  history: HistoryItem[] = HISTORY,
  nftMachines: NftMachines = machines,
) {
  const app = {
    session: sessionOf(makeUser()),
    ui: { send: vi.fn() },
    paymentRails: async () => ['creditCard', 'crypto'],
  } as unknown as AppActors;
  const root = createRootRoute();
  const page = createRoute({
    getParentRoute: () => root,
    path: '/nft/$id',
    component: () => <NftPage nft={NFT} history={history} machines={nftMachines} />,
  });
  const router = createRouter({
    routeTree: root.addChildren([
      page.addChildren([
        createRoute({ getParentRoute: () => page, path: 'details' }),
        // As the app's History tab: its list's code arrives with the tab (src/routes/nft.$id.history.tsx).
        createRoute({ getParentRoute: () => page, path: 'history', loader: () => HistoryList.preload() }),
      ]),
    ]),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  await act(async () => {
    render(
      <AppContext.Provider value={app}>
        <RouterProvider router={router as never} />
      </AppContext.Provider>,
    );
    await router.load();
  });
  return router;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe('the History tab of an NFT', () => {
  it('lists its purchases, newest first, then its creation: who, the edition and how long ago', async () => {
    await renderNftPage('/nft/4711/history');
    const lines = within(screen.getByRole('list', { name: 'History' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(lines).toEqual([
      'theo_b bought edition #033 hours ago',
      'mina_kato bought edition #031 day ago',
      'Night Shop created edition #031 day ago',
    ]);
    // Each line shows its person's avatar: the uploaded image, else the identicon of the seed.
    const first = screen.getAllByRole('listitem')[0]!;
    expect(first.querySelector('img')?.getAttribute('src')).toBe('/media/uploads/u9/avatar.png');
  });

  it('says so when nothing is recorded yet', async () => {
    await renderNftPage('/nft/4711/history', []);
    expect(screen.getByText('No history yet.')).toBeTruthy();
  });
});

const LISTING_ID = NFT.activeSaleListing!.id;
const CHARGE_ID = '5c4b3a29-1807-4f6e-9d5c-4b3a2918f7e6';

/** The buy dialog's flow with a balance, a top-up that answers as given, and what it was asked. */
function buyFlow(balance: number, topupStatus: CoinbaseChargeStatus = 'SEND_FUSD_SUCCEEDED') {
  const asked = { topupReads: [] as string[], topups: [] as TopupChargeRequest[], redirects: [] as string[] };
  const buyListing = buyListingMachine.provide({
    actors: {
      fusdBalance: fromPromise(async () => balance),
      getTopup: fromPromise<CoinbaseChargeJson, { id: string }>(async ({ input }) => {
        asked.topupReads.push(input.id);
        return topupCharge(topupStatus);
      }),
      createTopup: fromPromise<CoinbaseChargeJson, TopupChargeRequest>(async ({ input }) => {
        asked.topups.push(input);
        return topupCharge('NEW');
      }),
    },
    actions: { redirectTo: (_, { url }) => void asked.redirects.push(url) },
  });
  return { machines: { buyListing } as unknown as NftMachines, asked };
}

describe('a top-up opened from the buy dialog', () => {
  it('returns to this page with the dialog open on the same listing', async () => {
    const { machines: flow, asked } = buyFlow(1000);
    await renderNftPage('/nft/4711/details', HISTORY, flow);
    await act(async () => {
      screen.getByRole('button', { name: 'Buy now' }).click();
    });
    const dialog = await screen.findByRole('dialog', { name: 'Buy for $40' });
    await act(async () => {
      (await within(dialog).findByRole('button', { name: 'Add $30 with crypto' })).click();
    });
    await vi.waitFor(() => expect(asked.redirects).toEqual([HOSTED_URL]));
    expect(asked.topups).toEqual([
      { amount: 3000, idempotencyKey: expect.any(String), returnTo: `/nft/4711?listing=${LISTING_ID}` },
    ]);
  });

  it('back on the page, the dialog opens again on that listing, awaits the top-up and offers the purchase', async () => {
    const { machines: flow, asked } = buyFlow(5000);
    const router = await renderNftPage(
      `/nft/4711/details?listing=${LISTING_ID}&topup=${CHARGE_ID}`,
      HISTORY,
      flow,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Buy for $40' });
    expect(await within(dialog).findByText('Added $25 to your balance.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Pay $40' })).toBeTruthy();
    expect(asked.topupReads).toEqual([CHARGE_ID]);
    // The query is dropped: a reload does not open the dialog again.
    await vi.waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(router.state.location.pathname).toBe('/nft/4711/details');
  });

  it('a canceled top-up reopens the dialog short of the price, with the top-up offered again', async () => {
    const { machines: flow } = buyFlow(1000, 'CANCELED');
    await renderNftPage(`/nft/4711/details?listing=${LISTING_ID}&topup=${CHARGE_ID}`, HISTORY, flow);
    const dialog = await screen.findByRole('dialog', { name: 'Buy for $40' });
    expect(await within(dialog).findByText('The top-up was not paid.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Add $30 with crypto' })).toBeTruthy();
  });

  it('another listing’s return, or none, opens nothing', async () => {
    await renderNftPage('/nft/4711/details?listing=00000000-0000-4000-8000-000000000000');
    await act(async () => {});
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
