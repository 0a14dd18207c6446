/** The checkout dialog with its real child panels, and buying on the item page. */
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, createActor, createMachine, fromPromise } from 'xstate';
import type { BlueprintJson, PackJson } from '#domain/catalog';
import type { NftJson } from '#domain/nft';
import type { BillingInfoJson, CardChargeJson, FreeClaimJson } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import { balancePaymentMachine } from '../machines/balancePayment';
import { buyListingMachine } from '../machines/buyListing';
import { cardPaymentMachine } from '../machines/cardPayment';
import { type CheckoutInput, checkoutMachine } from '../machines/checkout';
import { type AppActors, AppContext } from '../src/views/AppContext';
import { ItemPage } from '../src/views/catalog/ItemPage';
import { CheckoutDialog } from '../src/views/checkout/CheckoutDialog';
import {
  BUYER,
  CARD_OUTCOMES,
  CHARGE_ID,
  FREE_CLAIM,
  ITEM,
  LISTING_3,
  LISTING_7,
  LISTINGS,
  ORDER_ID,
  PRICE,
  SCENARIOS,
} from './checkout.model';
import { topupCharge } from './cryptoTopup.model';
import { clickFirst } from './dom';
import { makeBlueprint, makeUser } from './fixtures';
import { renderWithRouter } from './router';

/**
 * The item page's checkout has a faked card rail (a promise actor): a stand-in marks where its panel
 * shows. Given a real machine actor (the dialog's tests), the real panel renders.
 */
const isMachineActor = (actor: AnyActorRef) => 'machine' in (actor.getSnapshot() as object);
vi.mock('../src/views/checkout/CardPanel', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/views/checkout/CardPanel')>();
  return {
    CardPanel: (props: ComponentProps<typeof real.CardPanel>) =>
      isMachineActor(props.actor) ? (
        <real.CardPanel {...props} />
      ) : (
        <section aria-label="Pay by card">The card rail</section>
      ),
  };
});

const dialog = (name?: string) => screen.getByRole('dialog', name ? { name } : {});

/** The checkout with answers for its actors; the card rail and the resale purchase as given. */
function checkoutWith(actors: Partial<Parameters<typeof checkoutMachine.provide>[0]['actors']> = {}) {
  return checkoutMachine.provide({
    actors: {
      findPendingCrypto: fromPromise(async (): Promise<CoinbaseChargeJson | null> => null),
      findPendingCharge: fromPromise(async (): Promise<CardChargeJson | null> => null),
      checkCollection: fromPromise(async (): Promise<{ ready: boolean }> => ({ ready: true })),
      claimFree: fromPromise(async () => FREE_CLAIM),
      ...actors,
    },
  });
}

async function renderDialog(machine: typeof checkoutMachine, input: CheckoutInput) {
  const actor = createActor(machine, { input });
  await renderWithRouter(() => <CheckoutDialog actor={actor} />);
  await act(async () => {
    actor.start();
  });
  return actor;
}

describe('the checkout dialog with its real child panels', () => {
  it('shows the real card rail, which has no Close: its Back returns to the methods', async () => {
    const machine = checkoutWith({
      cardPayment: cardPaymentMachine.provide({
        actors: { listBillingInfo: fromPromise(async (): Promise<BillingInfoJson[]> => []) },
      }),
    });
    await renderDialog(machine, SCENARIOS.resold);
    clickFirst('Buy a new edition for $25');
    // The chosen control is gone: focus moves to the new panel's first control.
    expect(document.activeElement?.textContent).toBe('Apple PayA card in your Apple Wallet');
    await act(async () => {
      clickFirst(/^Credit card/);
    });
    const rail = await screen.findByRole('region', { name: 'Pay by card' });
    // The card panel names the item and its price, once in the whole dialog.
    expect(dialog('Checkout').textContent!.split('Night Market').length - 1).toBe(1);
    expect(within(rail).getByText('Night Market · $25')).toBeTruthy();
    expect(within(rail).getByLabelText('Card number')).toBeTruthy();
    expect(within(rail).getByRole('button', { name: 'Pay $25' })).toBeTruthy();
    expect(within(dialog('Checkout')).queryAllByRole('button', { name: 'Close' })).toEqual([]);
    await act(async () => {
      fireEvent.click(within(rail).getByRole('button', { name: 'Back' }));
    });
    expect(dialog('How would you like to pay?')).toBeTruthy();
  });

  it('shows the real resale purchase in its own dialog; closing it returns to the editions', async () => {
    const machine = checkoutWith({
      buyListing: buyListingMachine.provide({ actors: { fusdBalance: fromPromise(async () => 10_000) } }),
    });
    await renderDialog(machine, SCENARIOS.resold);
    await act(async () => {
      clickFirst('Buy edition #03 for $40');
    });
    const buy = await screen.findByRole('dialog', { name: 'Buy for $40' });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    await act(async () => {
      fireEvent.click(within(buy).getByRole('button', { name: 'Cancel' }));
    });
    expect(await screen.findByRole('dialog', { name: 'Choose an edition' })).toBeTruthy();
  });
});

/** A stand-in for the session actor: signed in (with the user) or not. */
function sessionOf(user: ReturnType<typeof makeUser> | null) {
  return createActor(
    createMachine({
      initial: user ? 'loggedIn' : 'loggedOut',
      context: { user },
      states: { loggedIn: {}, loggedOut: {} },
    }),
  ).start();
}

const blueprint = (over: Partial<BlueprintJson> = {}) =>
  makeBlueprint({ id: ITEM.id, title: 'Night Market', state: 'active', price: PRICE, ...over });

/** The item page on /nft/{id}, with the pages a checkout ends on. */
async function renderItemPage(
  item: BlueprintJson | PackJson,
  listings: NftJson[],
  options: {
    user?: ReturnType<typeof makeUser> | null;
    machine?: typeof checkoutMachine;
    claim?: FreeClaimJson | null;
    /** Where the page opens (its query), instead of /nft/{id}. */
    path?: string;
    rails?: string[];
  } = {},
) {
  const ui = { send: vi.fn() };
  const cardInputs: unknown[] = [];
  const machine =
    options.machine ??
    checkoutWith({
      cardPayment: fromPromise(async ({ input }) => {
        cardInputs.push(input);
        return CARD_OUTCOMES.paid;
      }) as never,
    });
  const app = {
    session: sessionOf(options.user === undefined ? makeUser({ email: BUYER.email }) : options.user),
    ui,
    flows: { checkout: vi.fn(async () => machine) },
    cardCheckpoint: async () => null,
    billingCountry: () => 'CA',
    paymentRails: vi.fn(async () => options.rails ?? ['creditCard', 'crypto']),
    tokenRail: async () => null,
  } as unknown as AppActors;
  const root = createRootRoute();
  const router = createRouter({
    routeTree: root.addChildren([
      createRoute({
        getParentRoute: () => root,
        path: '/nft/$id',
        component: () => (
          <ItemPage item={item} history={[]} listings={listings} claim={options.claim ?? null} />
        ),
      }),
      createRoute({
        getParentRoute: () => root,
        path: '/nft/$id/details',
        component: () => <p>Details</p>,
      }),
      createRoute({
        getParentRoute: () => root,
        path: '/ordercomplete/$id',
        component: () => <p>Order page</p>,
      }),
      createRoute({
        getParentRoute: () => root,
        path: '/checkoutcomfailed/$reference',
        component: () => <p>Failed page</p>,
      }),
    ]),
    history: createMemoryHistory({ initialEntries: [options.path ?? `/nft/${item.id}`] }),
  });
  await act(async () => {
    render(
      <AppContext.Provider value={app}>
        <RouterProvider router={router as never} />
      </AppContext.Provider>,
    );
    await router.load();
  });
  return { router, ui, cardInputs, app };
}

describe('buying on the item page', () => {
  it('asks a visitor to sign up, to come back to the item with its checkout opening again', async () => {
    const { ui } = await renderItemPage(blueprint(), [], { user: null });
    await act(async () => {
      clickFirst('Buy now · $25');
    });
    await waitFor(() =>
      expect(ui.send).toHaveBeenCalledWith({ type: 'ui.signup.show', returnTo: `/nft/${ITEM.id}?buy=now` }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('fetches the checkout while a signed-in buyer reads the page, before they head for Buy', async () => {
    const { app } = await renderItemPage(blueprint(), []);
    await waitFor(() => expect(app.flows.checkout).toHaveBeenCalled());
    expect(app.paymentRails).toHaveBeenCalled();
  });

  it('asks a visitor to sign up at once, without fetching the checkout (nor on the way to Buy)', async () => {
    const { ui, app } = await renderItemPage(blueprint(), [], { user: null });
    const buy = screen.getByRole('button', { name: 'Buy now · $25' });
    fireEvent.pointerEnter(buy);
    fireEvent.click(buy);
    expect(ui.send).toHaveBeenCalledWith({ type: 'ui.signup.show', returnTo: `/nft/${ITEM.id}?buy=now` });
    expect(app.flows.checkout).not.toHaveBeenCalled();
    expect(app.paymentRails).not.toHaveBeenCalled();
  });

  it('opens the checkout afresh when a buyer comes back signed in (?buy=now), and forgets the query', async () => {
    const { router } = await renderItemPage(blueprint(), [], { path: `/nft/${ITEM.id}?buy=now` });
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('button', { name: /^Credit card/ })).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toEqual({}));
  });

  it('starts the card form with the account’s name and the country last paid with', async () => {
    const { cardInputs } = await renderItemPage(blueprint(), []);
    await act(async () => {
      clickFirst('Buy now · $25');
    });
    await act(async () => {
      clickFirst(/^Credit card/);
    });
    await screen.findByText('Order page');
    expect(cardInputs).toEqual([
      expect.objectContaining({ prefill: { firstName: 'Ada', lastName: 'Lovelace', country: 'CA' } }),
    ]);
  });

  it('pays a new edition by card and opens the purchase-complete page that follows the order and its charge', async () => {
    const { router, cardInputs } = await renderItemPage(blueprint(), LISTINGS);
    await act(async () => {
      clickFirst('Buy now · $25');
    });
    await screen.findByRole('dialog', { name: 'Choose an edition' });
    await act(async () => {
      clickFirst('Buy a new edition for $25');
    });
    await act(async () => {
      clickFirst(/^Credit card/);
    });
    await screen.findByText('Order page');
    expect(cardInputs).toEqual([
      {
        item: ITEM,
        price: PRICE,
        email: BUYER.email,
        checkpoint: null,
        prefill: { firstName: 'Ada', lastName: 'Lovelace', country: 'CA' },
      },
    ]);
    expect(router.state.location.pathname).toBe(`/ordercomplete/${ITEM.id}`);
    expect(router.state.location.search).toEqual({
      e: 'blueprint',
      t: Date.parse('2026-11-22T10:00:00.000Z') - 15_000,
      type: 'creditCard',
      order: ORDER_ID,
      charge: CHARGE_ID,
    });
  });

  it('opens the failed page of a declined order', async () => {
    const machine = checkoutWith({ cardPayment: fromPromise(async () => CARD_OUTCOMES.failed) as never });
    const { router } = await renderItemPage(blueprint(), [], { machine });
    await act(async () => {
      clickFirst('Buy now · $25');
    });
    await act(async () => {
      clickFirst(/^Credit card/);
    });
    await screen.findByText('Failed page');
    expect(router.state.location.pathname).toBe(`/checkoutcomfailed/${ORDER_ID}`);
  });

  it('claims a free item', async () => {
    const { router } = await renderItemPage(blueprint({ id: FREE_CLAIM.blueprintId, price: 0 }), []);
    await act(async () => {
      clickFirst('Claim for free');
    });
    await screen.findByText('Order page');
    expect(router.state.location.search).toMatchObject({ e: 'blueprint', type: 'freeBlueprintClaim' });
  });

  it('is sold out without listings; with listings, the cheapest opens the choice of editions', async () => {
    await renderItemPage(blueprint({ quantityAvailable: 0 }), []);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Sold out' }).disabled).toBe(true);
    cleanup();

    await renderItemPage(blueprint({ quantityAvailable: 0 }), [LISTING_7, LISTING_3]);
    await act(async () => {
      clickFirst('Buy now · $18');
    });
    const editions = await screen.findByRole('dialog', { name: 'Choose an edition' });
    expect(within(editions).queryByRole('button', { name: /new edition/ })).toBeNull();
    expect(within(editions).getAllByRole('button', { name: /^Buy edition/ })).toHaveLength(2);
    await act(async () => {
      clickFirst('Close');
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('a card sold only in a pack', () => {
  const pack = {
    id: '2b3c4d5e-6f70-4819-8a2b-3c4d5e6f7081',
    title: 'Booster Pack: Series 1',
    price: 1500,
    quantity: 500,
    quantityAvailable: 430,
    state: 'available' as const,
    availableTime: null,
    coverImageUrl: null,
  };
  const card = (over: Partial<BlueprintJson> = {}) =>
    blueprint({
      title: 'Booster Pack: Series 1 — Card A',
      type: 'stickerInPack',
      price: 0,
      quantity: 500,
      quantityAvailable: 500,
      blueprintPackId: pack.id,
      pack,
      isInPack: true,
      ...over,
    });

  it('names its pack, links to it at the pack’s price, and shows the pack’s editions left; never Free', async () => {
    await renderItemPage(card(), []);
    const price = screen.getByText('Only in').parentElement!;
    expect(price.textContent).toBe('Only in Booster Pack: Series 1 $15');
    expect(within(price).getByRole('link', { name: 'Booster Pack: Series 1' }).getAttribute('href')).toBe(
      `/nft/${pack.id}`,
    );
    expect(screen.getByText('Available').parentElement!.textContent).toBe('Available 430/500');
    const get = screen.getByRole('link', { name: 'Get Booster Pack: Series 1 · $15' });
    expect(get.getAttribute('href')).toBe(`/nft/${pack.id}`);
    expect(screen.queryByRole('button', { name: /Buy now|Claim/ })).toBeNull();
    expect(screen.queryByText(/Free/)).toBeNull();
    expect(screen.getByText(/Sold only in Booster Pack: Series 1/)).toBeTruthy();
  });

  it('whose pack visitors cannot see offers nothing, and says so', async () => {
    await renderItemPage(card({ pack: null }), []);
    expect(screen.getByText('Only in').parentElement!.textContent).toBe('Only in a pack');
    expect(screen.queryByRole('link', { name: /^Get / })).toBeNull();
    expect(screen.queryByRole('button', { name: /Buy now|Claim/ })).toBeNull();
    expect(screen.getByText('Sold only in a pack that is not on sale.')).toBeTruthy();
  });
});

describe('a free item the user claimed', () => {
  const claimed = (nftId: string | null, serialNumber: number | null): FreeClaimJson => ({
    ...FREE_CLAIM,
    order: {
      ...FREE_CLAIM.order,
      editions: [
        {
          blueprintId: FREE_CLAIM.blueprintId,
          flowBlueprintId: 1042,
          title: 'Welcome Sticker',
          serialNumber,
          nftId,
          previewImageUrl: null,
          storefront: { id: 'c0ffee00-1234-4abc-8def-0123456789ab', name: 'Pixel Garden' },
        },
      ],
    },
  });

  it('says Claimed with a link to the edition, and offers no second claim', async () => {
    await renderItemPage(blueprint({ id: FREE_CLAIM.blueprintId, price: 0 }), [], {
      claim: claimed('4711', 3),
    });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Claimed' }).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Claim for free' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Your edition #03' }).getAttribute('href')).toBe('/nft/4711');
    expect(screen.getByText('You claimed this item; it is in your collection.')).toBeTruthy();
  });

  it('says Claimed while the edition is minted', async () => {
    await renderItemPage(blueprint({ id: FREE_CLAIM.blueprintId, price: 0 }), [], {
      claim: claimed(null, 3),
    });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Claimed' }).disabled).toBe(true);
    expect(screen.queryByRole('link', { name: /^Your edition/ })).toBeNull();
    expect(
      screen.getByText('You claimed this item: your edition is being minted to your wallet.'),
    ).toBeTruthy();
  });
});

describe('back on the item page from a top-up the checkout opened', () => {
  const TOPUP_ID = '5c4b3a29-1807-4f6e-9d5c-4b3a2918f7e6';
  const topupRead = fromPromise<CoinbaseChargeJson, { id: string }>(async () =>
    topupCharge('SEND_FUSD_SUCCEEDED'),
  );

  // Sale listing ids are uuids.
  const listing = {
    ...LISTING_3,
    activeSaleListing: { ...LISTING_3.activeSaleListing, id: 'b2c3d4e5-0000-4000-8000-000000004711' },
  };

  it('opens the checkout again on the same resale listing, which awaits the top-up', async () => {
    const machine = checkoutWith({
      buyListing: buyListingMachine.provide({
        actors: { fusdBalance: fromPromise(async () => 10_000), getTopup: topupRead },
      }),
    });
    const { router } = await renderItemPage(blueprint({ quantityAvailable: 0 }), [LISTING_7, listing], {
      machine,
      path: `/nft/${ITEM.id}?listing=${listing.activeSaleListing.id}&topup=${TOPUP_ID}`,
    });
    const buy = await screen.findByRole('dialog', { name: 'Buy for $40' });
    expect(await within(buy).findByText('Added $25 to your balance.')).toBeTruthy();
    expect(within(buy).getByRole('button', { name: 'Pay $40' })).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toEqual({}));
  });

  it('opens the checkout again on the balance rail of a new edition', async () => {
    const machine = checkoutWith({
      readBalance: fromPromise(async () => 4000),
      balancePayment: balancePaymentMachine.provide({
        actors: { readBalance: fromPromise(async () => 4000), getTopup: topupRead },
      }),
    });
    await renderItemPage(blueprint(), [], {
      machine,
      rails: ['creditCard', 'crypto', 'balance'],
      path: `/nft/${ITEM.id}?buy=balance&topup=${TOPUP_ID}`,
    });
    const rail = await screen.findByRole('region', { name: 'Pay with your balance' });
    expect(await within(rail).findByText('Added $25 to your balance.')).toBeTruthy();
    expect(within(rail).getByRole('button', { name: 'Pay $25 from balance' })).toBeTruthy();
  });

  it('opens nothing for a visitor', async () => {
    await renderItemPage(blueprint(), [listing], {
      user: null,
      path: `/nft/${ITEM.id}?listing=${listing.activeSaleListing.id}&topup=${TOPUP_ID}`,
    });
    await act(async () => {});
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
