import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { NftJson } from '#domain/nft';
import type { OfferJson } from '#domain/responses/offers';
import { acceptOfferMachine } from '../../../machines/acceptOffer';
import { cancelOfferMachine } from '../../../machines/cancelOffer';
import { makeOfferMachine } from '../../../machines/makeOffer';
import { makeBlueprint, makeUser } from '../../../model-tests/fixtures';
import { type AppActors, AppContext } from '../../../src/views/AppContext';
import { NftOffers } from '../../../src/views/offers/NftOffers';
import { BUYER, daysFromNow, NOW, OTHER, OWNER, offer, sessionOf } from './fixtures';

/**
 * The Offers section of an NFT's page: its offers with amount, buyer, expiry and status; Accept for
 * the owner on open ones, Cancel for a buyer on theirs, and "Make offer" for anyone but the owner.
 */

const NFT: NftJson = {
  id: '4711',
  blueprint: makeBlueprint({
    title: 'Night Market',
    state: 'active',
    royaltyPercent: 10,
    totalFeePercent: 5,
  }),
  blueprintId: '1042',
  seriesNumber: 3,
  serialNumber: 3,
  metadata: { title: 'Night Market' },
  status: 'parked',
  owner: {
    id: OWNER.id,
    username: OWNER.username,
    avatarUrl: null,
    wallet: { walletAddress: OWNER.walletAddress },
  },
  activeSaleListing: null,
  nftPurchase: null,
  shareImage: { url: '/og/nft/4711.png', width: 1200, height: 630 },
};

const OFFERS: OfferJson[] = [
  offer(),
  offer({
    id: 'o2',
    chainOfferId: '18',
    buyer: BUYER,
    amount: 1999,
    status: 'unfunded',
    expiresAt: daysFromNow(1),
  }),
  offer({ id: 'o3', chainOfferId: '19', amount: 5000, status: 'open', expiresAt: daysFromNow(-0.5) }),
  offer({ id: 'o4', chainOfferId: '20', amount: 3000, status: 'canceled', closedAt: daysFromNow(-1) }),
];

/** Flows whose chain work never ends: the dialogs stay on their first panel. */
const pending = () => fromPromise(() => new Promise<never>(() => {})) as never;

async function renderSection(user: ReturnType<typeof makeUser> | null, offers: () => Promise<unknown>) {
  const app = {
    session: sessionOf(user),
    ui: { send: vi.fn() },
    flows: {
      offers: vi.fn(offers),
      makeOffer: async () =>
        makeOfferMachine.provide({
          actors: {
            readBalance: fromPromise(async () => 2000),
            makeOffer: pending(),
            recordOffer: pending(),
          },
        }),
      acceptOffer: async () =>
        acceptOfferMachine.provide({ actors: { acceptOffer: pending(), recordOffer: pending() } }),
      cancelOffer: async () =>
        cancelOfferMachine.provide({ actors: { cancelOffer: pending(), recordOffer: pending() } }),
    },
  } as unknown as AppActors;
  const root = createRootRoute({ component: () => <NftOffers nft={NFT} /> });
  const router = createRouter({
    routeTree: root.addChildren([createRoute({ getParentRoute: () => root, path: '/nft/$id' })]),
    history: createMemoryHistory({ initialEntries: ['/nft/4711'] }),
  });
  await act(async () => {
    render(
      <AppContext.Provider value={app}>
        <RouterProvider router={router as never} />
      </AppContext.Provider>,
    );
    await router.load();
  });
  // The offers are read after the section mounts.
  await act(async () => {});
  return app;
}

const lines = () =>
  within(screen.getByRole('list', { name: 'Offers' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe('the Offers section of an NFT', () => {
  it('shows the owner each offer: amount, buyer, expiry, status; Accept only on an open one still standing', async () => {
    const app = await renderSection(
      makeUser({ id: OWNER.id, wallet: { walletAddress: OWNER.walletAddress } }),
      async () => ({
        results: OFFERS,
        total: 4,
      }),
    );
    expect(app.flows.offers).toHaveBeenCalledWith({ nftId: '4711' });
    expect(lines()).toEqual([
      `$25 from ${OTHER.walletAddress}expires in 3 daysOpenAccept`,
      '$19.99 from @ada_lovelaceexpires in 1 dayNo longer funded',
      `$50 from ${OTHER.walletAddress}Expired`,
      `$30 from ${OTHER.walletAddress}Canceled`,
    ]);
    // The owner makes no offer on their own NFT.
    expect(screen.queryByRole('button', { name: 'Make offer' })).toBeNull();
  });

  it('opens the accept dialog with what the owner receives after royalty and fee', async () => {
    await renderSection(
      makeUser({
        id: OWNER.id,
        wallet: { walletAddress: OWNER.walletAddress },
        kyc: { ...makeUser().kyc, status: 'approved' },
      }),
      async () => ({
        results: OFFERS,
        total: 4,
      }),
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Accept' })));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { level: 2 }).textContent).toBe('Accept offer');
    expect(dialog.textContent).toContain('Offer$25');
    expect(dialog.textContent).toContain('You receive$21.25');
  });

  it('lets a buyer cancel their own offer and make another', async () => {
    await renderSection(makeUser(), async () => ({ results: OFFERS, total: 4 }));
    const mine = screen.getAllByRole('listitem')[1]!;
    expect(within(mine).getByRole('button', { name: 'Cancel offer' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Cancel offer' })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    await act(async () => fireEvent.click(within(mine).getByRole('button', { name: 'Cancel offer' })));
    expect((await screen.findByRole('dialog')).textContent).toContain('Withdraw your offer of $19.99?');
  });

  it("opens the make-offer dialog with the buyer's balance", async () => {
    await renderSection(makeUser(), async () => ({ results: [], total: 0 }));
    expect(screen.getByText('No offers yet.')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Make offer' })));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Your offer (USD)')).toBeTruthy();
    expect(dialog.textContent).toContain('Your balance$20');
  });

  it('asks a visitor to sign in before an offer', async () => {
    const app = await renderSection(null, async () => ({ results: OFFERS, total: 4 }));
    fireEvent.click(screen.getByRole('button', { name: 'Make offer' }));
    expect(app.ui.send).toHaveBeenCalledWith({ type: 'ui.signup.show' });
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel offer' })).toBeNull();
  });

  it('stays out of the page when the offers cannot be read', async () => {
    await renderSection(makeUser(), async () => {
      throw new Error('offline');
    });
    expect(screen.queryByRole('heading', { name: 'Offers' })).toBeNull();
  });
});
