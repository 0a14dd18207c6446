import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type AnyMachineSnapshot, createActor, createMachine, fromPromise } from 'xstate';
import type { FollowedCharge } from '#domain/chargeProgress';
import { type PurchaseJson, type PurchaseLookup, parseOrderCompleteSearch } from '#domain/purchase';
import { buyListingMachine } from '../machines/buyListing';
import {
  type ChargeRef,
  type FollowRef,
  type PurchaseCompleteContext,
  purchaseCompleteMachine,
} from '../machines/purchaseComplete';
import { connectPurchaseComplete } from '../machines/purchaseCompleteView';
import { type AppActors, AppContext } from '../src/views/AppContext';
import { BuyDialog } from '../src/views/nft/NftDialogs';
import { PurchaseCompletePage, PurchaseCompleteView } from '../src/views/purchase/PurchaseCompletePage';
import { flushCoverage } from './coverage-store';
import { coveringPaths, type PathStep, runPath } from './harness';
import {
  BLUEPRINT_ID,
  BOUGHT_AT,
  BUYER_EMAIL,
  BUYER_WALLET,
  CARD_PURCHASE,
  CRYPTO_CHARGE_ID,
  FREE_CLAIM,
  followed,
  LINK_TIME,
  LISTING_ID,
  ONRAMP_CHARGE_ID,
  PACK_ID,
  PACK_PURCHASE,
  purchaseCompleteModel,
  RESALE,
} from './purchaseComplete.model';
import { renderWithRouter } from './router';

/** Date and time as a person in this time zone reads them. */
const dateTime = (iso: string | Date) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));

/**
 * The page has no controls that send the machine anything: it only waits (ticks and lookups are the
 * harness's to run). A step with a user event would be a model error.
 */
function perform(step: PathStep): never {
  throw new Error(`The purchase-complete page has no control for "${step.event.type}"`);
}

/** The label → value pairs of the purchase details. */
function detailPairs() {
  const list = screen.getByRole('region', { name: 'Your purchase' }).querySelector('dl')!;
  return [...list.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);
}

/** The page against the view model of the expected snapshot; the fixtures name what it should say. */
function check(expected: AnyMachineSnapshot) {
  const view = connectPurchaseComplete(expected as never);
  const heading = screen.getByRole('heading', { level: 1 }).textContent;
  const article = screen.getByRole('article');
  const purchase = expected.context.purchase as PurchaseJson | null;
  const marketplace = screen.queryByRole('link', { name: 'Back to marketplace' });
  expect(heading).toBe(view.title);
  if (view.panel === 'pending') {
    expect(heading).toBe('Almost there');
    expect(article.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status', { name: 'Confirming your purchase' })).toBeTruthy();
    expect(article.textContent).toContain('It may take a couple of minutes.');
    expect(screen.queryByRole('region', { name: 'Your purchase' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(marketplace).toBeNull();
    return;
  }
  expect(article.getAttribute('aria-busy')).toBeNull();
  expect(screen.queryByRole('status')).toBeNull();
  if (view.panel === 'success') {
    const order = (expected.context as PurchaseCompleteContext).followed?.order ?? null;
    expect(purchase ?? order).not.toBeNull();
    expect(heading).toBe('Purchase Complete');
    expect(screen.queryByRole('alert')).toBeNull();
    // What the buyer sees, from the fixtures: the order followed, else the record's edition or the link's.
    const expectedPairs = !purchase
      ? [
          ['Item', 'Night Market'],
          ['Edition', '#05'],
          ['Partner company', 'Pixel Garden'],
          ['Total', '$25'],
          ['Date and time', dateTime(order!.createdAt as string)],
          ['Email', BUYER_EMAIL],
          ['Wallet address', BUYER_WALLET],
        ]
      : purchase.id === CARD_PURCHASE.id
        ? [
            ['Item', 'Night Market'],
            ['Edition', '#05'],
            ['Partner company', 'Pixel Garden'],
            ['Total', '$25'],
            ['Date and time', dateTime(CARD_PURCHASE.purchasedOn)],
            ['Email', BUYER_EMAIL],
            ['Wallet address', BUYER_WALLET],
          ]
        : purchase!.id === RESALE.id
          ? [
              ['Item', 'Night Market'],
              ['Edition', '#03'],
              ['Partner company', 'Pixel Garden'],
              ['Total', '$40'],
              ['Date and time', dateTime(RESALE.purchasedOn)],
              ['Email', BUYER_EMAIL],
              ['Wallet address', BUYER_WALLET],
            ]
          : [
              ['Item', 'Night Market'],
              ['Edition', '#12'],
              ['Partner company', 'Pixel Garden'],
              ['Total', 'Free'],
              ['Date and time', dateTime(FREE_CLAIM.purchasedOn)],
              ['Wallet address', FREE_CLAIM.walletAddress],
            ];
    expect(detailPairs()).toEqual(expectedPairs);
    const image = within(screen.getByRole('region', { name: 'Your purchase' })).getByRole('img', {
      name: 'Night Market',
    });
    expect(image.getAttribute('src')).toBe('/media/seed/night-market.png');
    expect(marketplace?.getAttribute('href')).toBe('/marketplace');
    return;
  }
  const c = expected.context as PurchaseCompleteContext;
  const timeline = screen.queryByRole('list', { name: 'Order timeline' });
  if (view.panel === 'refund') {
    // The order was not served: the refund in words, and the order's timeline.
    const stage = c.followed!.stage;
    expect(heading).toBe(
      stage === 'refunded'
        ? 'Payment Refunded'
        : stage === 'refundFailed'
          ? 'Refund Delayed'
          : 'Refund on Its Way',
    );
    if (!c.charge || c.charge.rail === 'card') {
      // The card provider refunded the capture, or the balance's payment went back (the fixtures'
      // orders have no timeline).
      expect(article.textContent).toContain(
        `This purchase could not be completed, so nothing was minted. $25 was refunded ${c.charge ? 'to your card' : 'as FUSD to your wallet'}.`,
      );
      expect(timeline).toBeNull();
    } else {
      const reason =
        'Your payment arrived after the order ended, when this edition was no longer held for you, so nothing was minted.';
      const text =
        stage === 'refunded'
          ? `${reason} $25 was refunded as FUSD to your wallet.`
          : stage === 'refundFailed'
            ? `${reason} We could not send the $25 you paid back as FUSD to your wallet yet.`
            : `${reason} The $25 you paid is being sent back as FUSD to your wallet.`;
      expect(article.textContent).toContain(text);
      if (stage === 'refundFailed') expect(screen.getByRole('alert').textContent).toBe(text);
      expect([...timeline!.querySelectorAll('strong')].map((e) => e.textContent)).toEqual([
        'Order placed',
        'Order expired',
        'Paid after the order ended',
        ...(stage === 'refunded' ? ['Refunded as FUSD'] : []),
      ]);
      if (stage === 'refunded')
        expect(timeline!.textContent).toContain('$25 was sent back as FUSD to your wallet.');
    }
    if (stage !== 'refundFailed') expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to the item' }).getAttribute('href')).toBe(
      `/nft/${BLUEPRINT_ID}`,
    );
    expect(marketplace?.getAttribute('href')).toBe('/marketplace');
    expect(screen.queryByRole('region', { name: 'Your purchase' })).toBeNull();
    return;
  }
  expect(timeline).toBeNull();
  if (c.failure === 'paymentFailed') {
    expect(heading).toBe('Purchase Failed');
    const card = c.charge?.rail === 'card';
    expect(screen.getByRole('alert').textContent).toBe(
      card
        ? 'Purchase Failed. Your card was not charged.'
        : c.charge?.rail === 'onramp'
          ? 'The card payment did not go through. You were not charged.'
          : 'You were not charged.',
    );
    expect(article.textContent).toContain(
      card
        ? 'Nothing was minted. You can try again with another card.'
        : 'Nothing was minted. You can try again from the item page.',
    );
    expect(screen.queryByRole('region', { name: 'Your purchase' })).toBeNull();
    return;
  }
  expect(heading).toBe('Uh Oh');
  expect(screen.getByRole('alert').textContent).toBe("Something went wrong. We're looking into it!");
  expect(article.textContent).toContain(
    'check your collection, and contact support if you were charged and nothing arrives within an hour',
  );
  const support = screen.getByRole('link', { name: 'support@vitrine.market' });
  expect(support.getAttribute('href')).toBe('mailto:support@vitrine.market');
  expect(screen.getByRole('link', { name: 'My collection' }).getAttribute('href')).toBe(
    '/profile/collection',
  );
  expect(screen.queryByRole('region', { name: 'Your purchase' })).toBeNull();
  expect(marketplace).toBeNull();
}

describe('purchase-complete paths through the page', () => {
  for (const path of coveringPaths(purchaseCompleteModel)) {
    it(path.description, () =>
      runPath(purchaseCompleteModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => <PurchaseCompleteView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});

/** A stand-in for the session actor: only its user is read. */
function sessionWith(user: { email: string; wallet: { walletAddress: string } } | null) {
  return createActor(createMachine({ context: { user } })).start();
}

/** The real route path and query, the page's loader handing over `machine`. */
async function renderRoute(url: string, machine: typeof purchaseCompleteMachine, app: Partial<AppActors>) {
  const root = createRootRoute();
  const page = createRoute({
    getParentRoute: () => root,
    path: '/ordercomplete/$id',
    validateSearch: parseOrderCompleteSearch,
    loader: () => ({ machine }),
    component: PurchaseCompletePage,
  });
  const router = createRouter({
    routeTree: root.addChildren([page]),
    history: createMemoryHistory({ initialEntries: [url] }),
  });
  await act(async () => {
    render(
      <AppContext.Provider value={app as AppActors}>
        <RouterProvider router={router as never} />
      </AppContext.Provider>,
    );
    await router.load();
  });
}

describe('the purchase-complete route', () => {
  it('looks for the link’s item since its time and shows the signed-in buyer’s email', async () => {
    const lookups: PurchaseLookup[] = [];
    const machine = purchaseCompleteMachine.provide({
      delays: { pollInterval: 1 },
      actors: {
        findPurchase: fromPromise<PurchaseJson | null, PurchaseLookup>(async ({ input }) => {
          lookups.push(input);
          return RESALE;
        }),
      },
    });
    const session = sessionWith({ email: BUYER_EMAIL, wallet: { walletAddress: BUYER_WALLET } });
    await renderRoute(
      `/ordercomplete/${LISTING_ID}?e=nftSaleListing&t=${LINK_TIME}&serial=3&type=saleListing`,
      machine,
      { session: session as never },
    );
    expect(await screen.findByRole('heading', { name: 'Purchase Complete' })).toBeTruthy();
    expect(lookups).toEqual([{ id: LISTING_ID, kind: 'nftSaleListing', since: BOUGHT_AT - 15_000 }]);
    expect(screen.getByText(BUYER_EMAIL)).toBeTruthy();
  });

  it('follows the charge a crypto or on-ramp link names, and shows its refund with the order’s timeline', async () => {
    for (const [type, rail, id] of [
      ['coinbase', 'crypto', CRYPTO_CHARGE_ID],
      ['wert', 'onramp', ONRAMP_CHARGE_ID],
    ] as const) {
      const synced: ChargeRef[] = [];
      const machine = purchaseCompleteMachine.provide({
        delays: { pollInterval: 1 },
        actors: {
          syncCharge: fromPromise<FollowedCharge, ChargeRef>(async ({ input }) => {
            synced.push(input);
            return followed(rail, 'paidLate');
          }),
          follow: fromPromise<FollowedCharge, FollowRef>(async () => followed(rail, 'refunded')),
          findPurchase: fromPromise<PurchaseJson | null, PurchaseLookup>(async () => null),
        },
      });
      const session = sessionWith({ email: BUYER_EMAIL, wallet: { walletAddress: BUYER_WALLET } });
      await renderRoute(
        `/ordercomplete/${BLUEPRINT_ID}?e=blueprint&t=${LINK_TIME}&type=${type}&charge=${id}`,
        machine,
        { session: session as never },
      );
      expect(await screen.findByRole('heading', { name: 'Payment Refunded' })).toBeTruthy();
      expect(synced).toEqual([{ rail, id, ckoSessionId: null }]);
      expect(screen.getByRole('list', { name: 'Order timeline' }).textContent).toContain(
        'Refunded as FUSD$25 was sent back as FUSD to your wallet.',
      );
      cleanup();
    }
  });

  it('shows a pack as bought: the pack, its price and every card it minted, each with its edition and page', async () => {
    const machine = purchaseCompleteMachine.provide({
      delays: { pollInterval: 1 },
      actors: { findPurchase: fromPromise<PurchaseJson | null, PurchaseLookup>(async () => PACK_PURCHASE) },
    });
    const session = sessionWith({ email: BUYER_EMAIL, wallet: { walletAddress: BUYER_WALLET } });
    await renderRoute(`/ordercomplete/${PACK_ID}?e=blueprintPack&t=${LINK_TIME}&type=creditCard`, machine, {
      session: session as never,
    });
    expect(await screen.findByRole('heading', { name: 'Purchase Complete' })).toBeTruthy();
    expect(screen.getByText('Thank you! The 3 collectibles are yours.')).toBeTruthy();
    const pairs = detailPairs();
    expect(pairs.slice(0, 1)).toEqual([['Pack', 'Booster Pack: Series 1']]);
    expect(pairs).toContainEqual(['Total', '$15']);
    expect(pairs.map(([label]) => label)).not.toContain('Edition');
    const cards = within(screen.getByRole('list', { name: 'Cards in this pack' })).getAllByRole('listitem');
    expect(cards.map((card) => card.textContent)).toEqual([
      'Card A Edition #01',
      'Card B Edition #01',
      'Card C Edition #07',
    ]);
    expect(within(cards[2]!).getByRole('link', { name: 'Card C' }).getAttribute('href')).toBe('/nft/4803');
  });

  it('shows a visitor the failure of a link without a purchase time', async () => {
    await renderRoute(`/ordercomplete/${LISTING_ID}?e=nftSaleListing`, purchaseCompleteMachine, {
      session: sessionWith(null) as never,
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Uh Oh');
  });
});

describe('a resale bought in the buy dialog', () => {
  it('ends on the purchase-complete page of its listing, its time 15 s before the purchase recorded (as in the checkout)', async () => {
    const machine = buyListingMachine.provide({
      actors: {
        fusdBalance: fromPromise(async () => 3000),
        buyListing: fromPromise(async () => ({ transactionId: 'ab'.repeat(32) })),
        recordPurchase: fromPromise(async () => ({
          id: RESALE.id,
          transactionId: 'ab'.repeat(32),
          purchasedOn: RESALE.purchasedOn as string,
        })),
      },
    });
    const root = createRootRoute();
    const nft = createRoute({
      getParentRoute: () => root,
      path: '/',
      component: () => (
        <BuyDialog
          machine={machine}
          input={{
            listing: { id: LISTING_ID, blockchainListingId: '99', price: 2500, seller: '0x179b6b1cb6755e31' },
            nft: { flowBlueprintId: '7', seriesNumber: 3 },
            walletAddress: BUYER_WALLET,
            returnTo: `/nft/4711?listing=${LISTING_ID}`,
          }}
          onDone={() => {}}
        />
      ),
    });
    const done = createRoute({
      getParentRoute: () => root,
      path: '/ordercomplete/$id',
      validateSearch: parseOrderCompleteSearch,
      component: () => <p>order complete</p>,
    });
    const router = createRouter({
      routeTree: root.addChildren([nft, done]),
      history: createMemoryHistory({ initialEntries: ['/'] }),
    });
    await act(async () => {
      render(
        <AppContext.Provider value={{} as AppActors}>
          <RouterProvider router={router as never} />
        </AppContext.Provider>,
      );
      await router.load();
    });
    fireEvent.click(await screen.findByRole('checkbox'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Pay $25' })));
    await waitFor(() => expect(screen.getByText('order complete')).toBeTruthy());
    const { pathname, search, href } = router.state.location;
    expect(pathname).toBe(`/ordercomplete/${LISTING_ID}`);
    // A plain address: the time and the edition are digits, not quoted text.
    expect(href, href).toMatch(
      new RegExp(`^/ordercomplete/${LISTING_ID}\\?e=nftSaleListing&t=\\d{13}&type=saleListing&serial=3$`),
    );
    expect(search).toMatchObject({ e: 'nftSaleListing', type: 'saleListing', serial: 3 });
    expect((search as { t: number }).t).toBe(Date.parse(RESALE.purchasedOn as string) - 15_000);
  });
});
