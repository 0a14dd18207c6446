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
import type { OfferJson } from '#domain/responses/offers';
import { acceptOfferMachine } from '../../../machines/acceptOffer';
import { cancelOfferMachine } from '../../../machines/cancelOffer';
import { makeBlueprint, makeUser } from '../../../model-tests/fixtures';
import { type AppActors, AppContext } from '../../../src/views/AppContext';
import { OffersTab } from '../../../src/views/profile/OffersTab';
import { BUYER, daysFromNow, NOW, OTHER, offer, sessionOf } from './fixtures';

/**
 * The profile's Offers tab: offers received on the user's NFTs (Accept on open ones) and the offers
 * the user made (Cancel on standing ones), each naming its item.
 */

const ME = makeUser({ kyc: { ...makeUser().kyc, status: 'approved' } });
const ME_AS_OWNER = { ...BUYER };
const RECEIVED: OfferJson[] = [
  offer({ owner: ME_AS_OWNER, buyer: OTHER, amount: 4000 }),
  offer({ id: 'o5', owner: ME_AS_OWNER, buyer: OTHER, status: 'accepted', closedAt: daysFromNow(-1) }),
];
const MADE: OfferJson[] = [
  offer({
    id: 'o6',
    chainOfferId: '31',
    buyer: BUYER,
    amount: 1200,
    expiresAt: daysFromNow(30),
    nft: { id: '99', blueprintId: 'b2', title: 'Harbor Lights', imageUrl: null, seriesNumber: 12 },
  }),
  offer({ id: 'o7', buyer: BUYER, status: 'expired', expiresAt: daysFromNow(-2) }),
];

const pending = () => fromPromise(() => new Promise<never>(() => {})) as never;

async function renderTab(received: OfferJson[], made: OfferJson[]) {
  const app = {
    session: sessionOf(ME),
    ui: { send: vi.fn() },
    nfts: {
      get: vi.fn(async () => ({
        metadata: {},
        blueprint: makeBlueprint({ royaltyPercent: 10, totalFeePercent: 5 }),
      })),
    },
    flows: {
      acceptOffer: async () =>
        acceptOfferMachine.provide({ actors: { acceptOffer: pending(), recordOffer: pending() } }),
      cancelOffer: async () =>
        cancelOfferMachine.provide({ actors: { cancelOffer: pending(), recordOffer: pending() } }),
    },
  } as unknown as AppActors;
  const root = createRootRoute();
  const authenticated = createRoute({ getParentRoute: () => root, id: '_authenticated' });
  const profile = createRoute({ getParentRoute: () => authenticated, path: 'profile' });
  const tab = createRoute({
    getParentRoute: () => profile,
    path: 'offers',
    loader: () => ({ received, made }),
    component: OffersTab,
  });
  const router = createRouter({
    routeTree: root.addChildren([authenticated.addChildren([profile.addChildren([tab])])]),
    history: createMemoryHistory({ initialEntries: ['/profile/offers'] }),
  });
  await act(async () => {
    render(
      <AppContext.Provider value={app}>
        <RouterProvider router={router as never} />
      </AppContext.Provider>,
    );
    await router.load();
  });
  return app;
}

const lines = (name: string) =>
  within(screen.getByRole('list', { name }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe('the Offers tab of the profile', () => {
  it('lists the offers received and made with their items, Accept and Cancel where they stand', async () => {
    await renderTab(RECEIVED, MADE);
    expect(lines('Offers received')).toEqual([
      `$40 from ${OTHER.walletAddress} for Night Market #03expires in 3 daysOpenAccept`,
      `$25 from ${OTHER.walletAddress} for Night Market #03Accepted`,
    ]);
    expect(lines('Offers made')).toEqual([
      '$12 from @ada_lovelace for Harbor Lights #12expires in 1 monthOpenCancel offer',
      '$25 from @ada_lovelace for Night Market #03Expired',
    ]);
    const item = within(screen.getByRole('list', { name: 'Offers made' })).getByRole('link', {
      name: 'Harbor Lights #12',
    });
    expect(item.getAttribute('href')).toBe('/nft/99');
  });

  it('accepts with the NFT’s royalty and fee, read when Accept is pressed', async () => {
    const app = await renderTab(RECEIVED, []);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Accept' })));
    const dialog = await screen.findByRole('dialog');
    expect(app.nfts.get).toHaveBeenCalledWith('4711');
    expect(dialog.textContent).toContain('You receive$34');
    expect(within(dialog).getByRole('button', { name: 'Accept offer' })).toBeTruthy();
  });

  it('cancels an offer the user made', async () => {
    await renderTab([], MADE);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Cancel offer' })));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Withdraw your offer of $12?');
  });

  it('says when there is nothing on either side', async () => {
    await renderTab([], []);
    expect(screen.getByText('No offers on your collectibles yet.')).toBeTruthy();
    expect(screen.getByText(/You have made no offers/)).toBeTruthy();
  });
});
