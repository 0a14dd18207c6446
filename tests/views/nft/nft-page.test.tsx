import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import type { HistoryItem } from '#domain/catalog';
import type { NftJson } from '#domain/nft';
import { buyListingMachine } from '../../../machines/buyListing';
import { makeBlueprint, makeUser } from '../../../model-tests/fixtures';
import type { AppActors } from '../../../src/views/AppContext';
import { AppContext } from '../../../src/views/AppContext';
import type { NftMachines } from '../../../src/views/nft/NftActions';
import { NftPage } from '../../../src/views/nft/NftPage';

/** One NFT's page (/nft/{token id}): its History tab lists the mint and every purchase. */

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
  activeSaleListing: { id: 'a1b2c3d4-0000-4000-8000-000000000001', price: 4000, blockchainListingId: '94711' },
  nftPurchase: { amount: 2500, purchasedOn: hoursAgo(30) },
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
  return createActor(
    createMachine({ initial: 'on', context: { user }, states: { on: {} } }),
  ).start();
}

const machines = { buyListing: buyListingMachine } as unknown as NftMachines;

async function renderNftPage(path: string, history: HistoryItem[] = HISTORY) {
  const app = {
    session: sessionOf(makeUser()),
    ui: { send: vi.fn() },
    paymentRails: async () => ['creditCard', 'crypto'],
  } as unknown as AppActors;
  const root = createRootRoute();
  const page = createRoute({
    getParentRoute: () => root,
    path: '/nft/$id',
    component: () => <NftPage nft={NFT} history={history} machines={machines} />,
  });
  const router = createRouter({
    routeTree: root.addChildren([
      page.addChildren([
        createRoute({ getParentRoute: () => page, path: 'details' }),
        createRoute({ getParentRoute: () => page, path: 'history' }),
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
