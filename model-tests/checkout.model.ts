import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import type { NftJson } from '#domain/nft';
import type { CardChargeJson, FreeClaimJson } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import { cardPaid } from '../machines/cardPayment/charge';
import {
  type CheckoutContext,
  type CheckoutEvent,
  type CheckoutInput,
  checkoutMachine,
  type EditionSort,
} from '../machines/checkout';
import { type RailOutcome, railBack, railFailed, railPaid, railRedirect } from '../machines/railOutcome';
import { CHARGE_ID, charge, ITEM, NETWORK_ERROR, ORDER_ID, PRICE, REDIRECT_URL } from './cardPayment.model';
import { after, expectOutput, expectWorking, inputsOf } from './expect';
import { makeUser } from './fixtures';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof checkoutMachine>;
const ctx = (o: O) => o.snapshot.context as CheckoutContext;
const outputOf = <T>(o: O) => (o.event as unknown as { output: T }).output;
/** The rail or child machine whose end this step is, if any. */
const railDone = (o: O) => /^xstate\.done\.actor\.(\w+)$/.exec(o.event.type)?.[1] ?? null;
const RAILS_DONE = [
  'cardPayment',
  'cryptoPayment',
  'balancePayment',
  'walletPayment',
  'onrampPayment',
  'tokenCharge',
  'buyListing',
];
/** The item and price a rail is handed: the item bought, at the price the buyer saw. */
const railItemOf = (c: CheckoutContext) => ({
  item: { kind: c.item.kind, id: c.item.id, title: c.item.title },
  price: c.item.price,
});
/** A rail runs only once the wallet holds a collection (a resumed or restored card charge excepted). */
function expectRailOpened(o: O, rail: string, input: Record<string, unknown>) {
  expectWorking(o, rail);
  expect(inputsOf(o, rail).at(-1)).toMatchObject(input);
  expect(ctx(o).user).not.toBeNull();
}

export { CHARGE_ID, charge, ITEM, NETWORK_ERROR, ORDER_ID, PRICE, REDIRECT_URL };

export const BUYER = {
  id: 'u1',
  email: 'grace@example.com',
  walletAddress: '0x01cf0e2f2f715450',
  firstName: 'Grace',
  lastName: 'Hopper',
  billingCountry: 'CA',
};
/** What the card form starts with for BUYER: the account's name and the country last paid with. */
export const BUYER_PREFILL = { firstName: 'Grace', lastName: 'Hopper', country: 'CA' };
export const NEW_WALLET = '0x179b6b1cb6755e31';
export const PACK_ID = '2b3c4d5e-6f70-4a81-92a3-b4c5d6e7f809';
export const FREE_ID = '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';

/** A resale listing of an edition of Night Market. */
function listing(
  id: string,
  serial: number,
  price: number,
  owner: { username: string | null; wallet: string },
) {
  return {
    id,
    blueprint: null,
    blueprintId: '1042',
    seriesNumber: serial,
    serialNumber: serial,
    metadata: { title: 'Night Market' },
    status: 'forSale',
    owner: { id: null, username: owner.username, avatarUrl: null, wallet: { walletAddress: owner.wallet } },
    activeSaleListing: { id: `listing-${id}`, price, blockchainListingId: `9${id}` },
    nftPurchase: null,
    shareImage: { url: `/og/nft/${id}.png?v=0123456789abcdef`, width: 1200, height: 630 },
  } satisfies NftJson;
}
/** Edition 3 for $40 by @ada, edition 7 for $18 by a wallet without a username. */
export const LISTING_3 = listing('4711', 3, 4000, { username: 'ada', wallet: '0xf3fcd2c1a78f5eee' });
export const LISTING_7 = listing('4712', 7, 1800, { username: null, wallet: '0xe03daebed8ca0615' });
export const LISTINGS = [LISTING_3, LISTING_7];

export const BLUEPRINT_ITEM = { ...ITEM, price: PRICE, free: false };
export const PACK_ITEM = {
  kind: 'pack' as const,
  id: PACK_ID,
  title: 'Starter Pack',
  price: 6000,
  free: false,
};
export const FREE_ITEM = {
  kind: 'blueprint' as const,
  id: FREE_ID,
  title: 'Welcome Sticker',
  price: 0,
  free: true,
};

/** The utility-token rail: the local network, a browser wallet, nothing to resume. */
export const TOKEN_RAIL = { chainId: 31337, walletAvailable: true, restore: null };
/** The payment methods the server runs. */
export const RAILS: CheckoutInput['rails'] = [
  'applepay',
  'googlepay',
  'creditCard',
  'crypto',
  'balance',
  'onramp',
  'token',
];
/** The top-up charge a buyer came back from. */
export const TOPUP_CHARGE_ID = '5c4b3a29-1807-4f6e-9d5c-4b3a2918f7e6';
export const SCENARIOS = {
  visitor: { item: BLUEPRINT_ITEM, listings: LISTINGS, user: null, rails: RAILS },
  resold: { item: BLUEPRINT_ITEM, listings: LISTINGS, user: BUYER, rails: RAILS, token: TOKEN_RAIL },
  pack: { item: PACK_ITEM, listings: [], user: { ...BUYER, walletAddress: null }, rails: RAILS },
  free: { item: FREE_ITEM, listings: [], user: BUYER, rails: RAILS },
  checkpoint: {
    item: BLUEPRINT_ITEM,
    listings: [],
    user: BUYER,
    checkpoint: { chargeId: CHARGE_ID, step: 'redirect' as const },
    rails: RAILS,
  },
  charging: {
    item: BLUEPRINT_ITEM,
    listings: [],
    user: BUYER,
    checkpoint: { chargeId: CHARGE_ID, step: 'charging' as const },
    rails: RAILS,
  },
  /** Back from a top-up opened on edition 3's purchase: the checkout opens on that listing again. */
  reopenListing: {
    item: BLUEPRINT_ITEM,
    listings: LISTINGS,
    user: BUYER,
    rails: RAILS,
    reopen: { listing: LISTING_3.activeSaleListing.id, topup: TOPUP_CHARGE_ID },
  },
  /** Back from a top-up opened on the balance rail: the checkout opens on that rail again. */
  reopenBalance: {
    item: BLUEPRINT_ITEM,
    listings: [],
    user: BUYER,
    rails: RAILS,
    reopen: { listing: null, topup: TOPUP_CHARGE_ID },
  },
} satisfies Record<string, CheckoutInput>;

export const HOSTED_URL = 'http://127.0.0.1:8791/charges/XA6G6ZFR';
/** A crypto top-up's page, opened from a listing's purchase when the balance is short. */
export const TOPUP_URL = 'http://127.0.0.1:8791/charges/TOPUP123';
/** The buyer's open crypto charge for Night Market. */
export const CRYPTO_CHARGE: CoinbaseChargeJson = {
  id: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  type: 'directPurchase',
  status: 'NEW',
  context: null,
  hostedUrl: HOSTED_URL,
  code: 'XA6G6ZFR',
  amount: PRICE,
  paid: 0,
  unresolved: true,
  success: false,
  walletAddress: BUYER.walletAddress,
  fusdTransactionId: null,
  expiresAt: '2026-11-22T11:00:00.000Z',
  createdAt: '2026-11-22T10:00:00.000Z',
  order: { ...charge('pending').order, method: 'coinbase' },
};
export const CRYPTO_CANCELED: CoinbaseChargeJson = {
  ...CRYPTO_CHARGE,
  status: 'CANCELED',
  unresolved: false,
  hostedUrl: null,
};
export const CRYPTO_OUTCOMES = {
  redirect: railRedirect(HOSTED_URL),
  back: railBack,
} satisfies Record<string, RailOutcome>;

/** The wallet's FUSD balance: enough for Night Market ($25), or short of it. */
export const BALANCE_COVERS = 4000;
export const BALANCE_SHORT = 1200;
export const BALANCE_OUTCOMES = {
  paid: railPaid(charge('approved').order, 'fusd'),
  redirect: railRedirect(HOSTED_URL),
  back: railBack,
} satisfies Record<string, RailOutcome>;

/** The on-ramp charge the buyer paid in the widget. */
export const ONRAMP_CHARGE_ID = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
export const ONRAMP_OUTCOMES = {
  paid: railPaid(charge('approved').order, 'wert', ONRAMP_CHARGE_ID),
  back: railBack,
} satisfies Record<string, RailOutcome>;

export const TOKEN_OUTCOMES = {
  paid: railPaid(charge('approved').order, 'token'),
  back: railBack,
} satisfies Record<string, RailOutcome>;

/** The free claim as POST free-blueprint-claims answers it. */
export const FREE_CLAIM: FreeClaimJson = {
  id: 'c1a2b3c4-d5e6-4f70-8192-a3b4c5d6e7f8',
  userId: BUYER.id,
  blueprintId: FREE_ID,
  orderId: ORDER_ID,
  createdAt: '2026-11-22T10:00:01.000Z',
  order: {
    ...charge('approved').order,
    method: 'freeBlueprintClaim',
    item: { kind: 'blueprint', id: FREE_ID, title: 'Welcome Sticker' },
    amount: 0,
  },
};
export const CANCELED: CardChargeJson = {
  ...charge('pending'),
  status: 'Canceled',
  unresolved: false,
  order: { ...charge('pending').order, status: 'canceled' },
};
/** Listing 3 bought (its purchase recorded at 10:00:30): the resale's purchase-complete page. */
export const BOUGHT: RailOutcome = {
  type: 'paid',
  target: {
    to: '/ordercomplete/$id',
    params: { id: LISTING_3.activeSaleListing.id },
    search: {
      e: 'nftSaleListing',
      t: Date.parse('2026-11-22T10:00:15.000Z'),
      type: 'saleListing',
      serial: 3,
    },
  },
};
export const CARD_OUTCOMES = {
  paid: cardPaid(charge('approved')),
  redirect: railRedirect(REDIRECT_URL),
  failed: railFailed(ORDER_ID),
  back: railBack,
} satisfies Record<string, RailOutcome>;
/** A claim the server refuses (a retry gets the same answer). */
export const CLAIM_ERROR = {
  status: 400,
  body: { code: 'CLAIM_BLUEPRINT', message: 'You have already claimed this item.' },
};
export const NOT_CANCELLABLE = {
  status: 400,
  body: { code: 'CHARGE_NOT_CANCELLABLE', message: 'This payment can no longer be canceled.' },
};
export const WALLET_CANCELED = { code: 'WALLET_CANCELED' };

const nextSort: Record<EditionSort, EditionSort> = {
  priceAsc: 'priceDesc',
  priceDesc: 'edition',
  edition: 'priceAsc',
};

/**
 * The user events the paths explore. The sort menu is cycled once (low to high, high to low,
 * edition, back); editions are chosen in the first order only, and only the listing of edition 3:
 * the other rows behave the same and would repeat the graph beneath them.
 */
function userEvents(c: CheckoutContext): CheckoutEvent[] {
  const events: CheckoutEvent[] = [
    { type: 'checkout.edition.sort', sort: nextSort[c.sort] },
    { type: 'checkout.close' },
    { type: 'checkout.back' },
    { type: 'checkout.retry' },
    { type: 'checkout.method.select', method: 'creditCard' },
    { type: 'checkout.method.select', method: 'crypto' },

    { type: 'checkout.charge.resume' },
    { type: 'checkout.charge.cancel' },
    { type: 'checkout.wallet.connect' },
    { type: 'checkout.collection.setup' },
  ];
  // The newer rails behave alike in the checkout (invoke, then end or come back): one scenario
  // (an item others resell) covers their transitions without multiplying every other path.
  if (c.listings.length > 0)
    events.push(
      { type: 'checkout.method.select', method: 'balance' },
      { type: 'checkout.method.select', method: 'onramp' },
      { type: 'checkout.method.select', method: 'applepay' },
      { type: 'checkout.method.select', method: 'googlepay' },
      { type: 'checkout.method.select', method: 'token' },
    );
  if (c.sort === 'priceAsc')
    events.push(
      { type: 'checkout.edition.select', listingId: null },
      { type: 'checkout.edition.select', listingId: LISTING_3.id },
    );
  return events;
}

/** What a step shows: the state, the choices made, the pending charge and the error; the output at the end. */
export function serializeCheckout(s: AnyMachineSnapshot) {
  if (s.status === 'done') return JSON.stringify([s.value, s.output]);
  const c = s.context as CheckoutContext;
  return JSON.stringify([
    s.value,
    c.sort,
    c.listing?.id ?? null,
    c.target,
    c.collectionReady,
    c.walletAddress,
    c.pendingCharge ? 'pending' : null,
    c.pendingCrypto ? 'crypto' : null,
    c.resume ? 'resume' : null,
    c.checkpoint ? 'checkpoint' : null,
    c.error?.code ?? null,
    c.reopen ? 'reopen' : null,
    // The balance shows only beside the payment methods; elsewhere it changes nothing.
    s.matches('selectPaymentMethod') ? c.balance : null,
  ]);
}

export const checkoutModel: MachineModel<typeof checkoutMachine> = {
  machine: checkoutMachine,
  // The child machines (the card rail, the resale purchase) are faked like promises: their outputs
  // are the paths' steps. Their own paths are in cardPayment.* and buyListing.*.
  fakes: [
    'findPendingCrypto',
    'cancelCrypto',
    'cryptoPayment',
    'readBalance',
    'balancePayment',
    'onrampPayment',
    'tokenCharge',
    'walletPayment',
    'findPendingCharge',
    'cancelCharge',
    'claimFree',
    'linkWallet',
    'checkCollection',
    'setupCollection',
    'buyListing',
    'cardPayment',
  ],
  scenarios: [
    { name: 'a visitor', input: SCENARIOS.visitor },
    { name: 'a collector buying an item others resell', input: SCENARIOS.resold },
    { name: 'a collector without a wallet buying a pack', input: SCENARIOS.pack },
    { name: 'a collector claiming a free item', input: SCENARIOS.free },
    { name: 'back from 3-D Secure', input: SCENARIOS.checkpoint },
    { name: 'cut off while charging', input: SCENARIOS.charging },
    { name: 'back from a top-up of a resale purchase', input: SCENARIOS.reopenListing },
    { name: 'back from a top-up of the balance rail', input: SCENARIOS.reopenBalance },
  ],
  events: (s) => [
    { type: 'xstate.done.actor.findPendingCrypto', output: CRYPTO_CHARGE },
    { type: 'xstate.done.actor.findPendingCrypto', output: null },
    { type: 'xstate.error.actor.findPendingCrypto', error: NETWORK_ERROR },
    { type: 'xstate.done.actor.cancelCrypto', output: CRYPTO_CANCELED },
    { type: 'xstate.error.actor.cancelCrypto', error: NOT_CANCELLABLE },
    ...Object.values(CRYPTO_OUTCOMES).map((output) => ({ type: 'xstate.done.actor.cryptoPayment', output })),
    { type: 'xstate.done.actor.readBalance', output: BALANCE_COVERS },
    { type: 'xstate.done.actor.readBalance', output: BALANCE_SHORT },
    { type: 'xstate.error.actor.readBalance', error: NETWORK_ERROR },
    ...Object.values(BALANCE_OUTCOMES).map((output) => ({
      type: 'xstate.done.actor.balancePayment',
      output,
    })),
    ...Object.values(ONRAMP_OUTCOMES).map((output) => ({ type: 'xstate.done.actor.onrampPayment', output })),
    ...Object.values(TOKEN_OUTCOMES).map((output) => ({ type: 'xstate.done.actor.tokenCharge', output })),
    // A mobile wallet ends as the card rail does.
    ...Object.values(CARD_OUTCOMES).map((output) => ({ type: 'xstate.done.actor.walletPayment', output })),
    { type: 'xstate.done.actor.findPendingCharge', output: charge('challenge') },
    { type: 'xstate.done.actor.findPendingCharge', output: null },
    { type: 'xstate.error.actor.findPendingCharge', error: NETWORK_ERROR },
    ...userEvents(s.context as CheckoutContext),
    { type: 'xstate.done.actor.cancelCharge', output: CANCELED },
    { type: 'xstate.error.actor.cancelCharge', error: NOT_CANCELLABLE },
    {
      type: 'xstate.done.actor.linkWallet',
      output: { user: makeUser({ wallet: { walletAddress: NEW_WALLET } }) },
    },
    { type: 'xstate.error.actor.linkWallet', error: WALLET_CANCELED },
    { type: 'xstate.done.actor.checkCollection', output: { ready: true } },
    { type: 'xstate.done.actor.checkCollection', output: { ready: false } },
    { type: 'xstate.error.actor.checkCollection', error: NETWORK_ERROR },
    { type: 'xstate.done.actor.setupCollection', output: undefined },
    { type: 'xstate.error.actor.setupCollection', error: WALLET_CANCELED },
    { type: 'xstate.done.actor.claimFree', output: FREE_CLAIM },
    { type: 'xstate.error.actor.claimFree', error: CLAIM_ERROR },
    { type: 'xstate.error.actor.claimFree', error: NETWORK_ERROR },
    { type: 'xstate.done.actor.buyListing', output: BOUGHT },
    { type: 'xstate.done.actor.buyListing', output: railBack },
    { type: 'xstate.done.actor.buyListing', output: railRedirect(TOPUP_URL) },
    ...Object.values(CARD_OUTCOMES).map((output) => ({ type: 'xstate.done.actor.cardPayment', output })),
  ],
  serializeState: serializeCheckout,
  expect: {
    // A visitor is asked to sign up before anything else.
    signUp: (o) => {
      expect(ctx(o).user).toBeNull();
      expect(o.calls).toEqual([]);
      expectOutput(o, { kind: 'signUp' });
    },
    // A signed-in buyer's open crypto charge comes first, then a card charge waiting for 3-D Secure.
    findingPendingCrypto: (o) => {
      expect(o.event.type).toBe('xstate.init');
      expectWorking(o, 'findPendingCrypto');
    },
    cryptoPending: (o) => {
      expect(ctx(o).pendingCrypto?.id).toBe(CRYPTO_CHARGE.id);
      if (after(o, 'error', 'cancelCrypto')) expect(ctx(o).error?.code).toBe('CHARGE_NOT_CANCELLABLE');
    },
    cancellingCrypto: (o) => {
      expect(o.event.type).toBe('checkout.charge.cancel');
      expectWorking(o, 'cancelCrypto', { id: CRYPTO_CHARGE.id });
    },
    findingPending: (o) => {
      expectWorking(o, 'findPendingCharge');
      expect(ctx(o).pendingCrypto).toBeNull();
    },
    cardPending: (o) => {
      expect(ctx(o).pendingCharge?.id).toBe(CHARGE_ID);
      if (after(o, 'error', 'cancelCharge')) expect(ctx(o).error?.code).toBe('CHARGE_NOT_CANCELLABLE');
    },
    cancellingCharge: (o) => {
      expect(o.event.type).toBe('checkout.charge.cancel');
      expectWorking(o, 'cancelCharge', { id: CHARGE_ID });
    },
    // The new edition or a resale listing: only for an item others resell, never a free one.
    selectEdition: (o) => {
      expect(ctx(o).listings.length).toBeGreaterThan(0);
      expect(ctx(o).item.free).toBe(false);
      if (o.event.type === 'checkout.edition.sort') expect(ctx(o).sort).toBe(o.event.sort);
    },
    selectPaymentMethod: (o) => {
      expect(ctx(o).item.free).toBe(false);
      expect(ctx(o).user).not.toBeNull();
    },
    // The balance shows beside the rails when the buyer has a wallet.
    'selectPaymentMethod.readingBalance': (o) =>
      expectWorking(o, 'readBalance', { address: ctx(o).walletAddress }),
    'selectPaymentMethod.shown': (o) => {
      if (after(o, 'done', 'readBalance')) expect(ctx(o).balance).toBe(outputOf<number>(o));
      const done = railDone(o);
      if (done && RAILS_DONE.includes(done)) expect(outputOf<{ type: string }>(o).type).toBe('back');
    },
    // Without a wallet the buyer connects one; without a collection, sets it up.
    'collection.walletRequired': (o) => {
      expect(ctx(o).walletAddress).toBeNull();
      if (after(o, 'error', 'linkWallet')) expect(ctx(o).error?.code).toBe('WALLET_CANCELED');
    },
    'collection.linkingWallet': (o) => {
      expect(o.event.type).toBe('checkout.wallet.connect');
      expectWorking(o, 'linkWallet');
    },
    'collection.checking': (o) => {
      expect(ctx(o).collectionReady).toBe(false);
      expectWorking(o, 'checkCollection', { address: ctx(o).walletAddress });
    },
    'collection.checkFailed': (o) => expect(ctx(o).error?.code).toBe('NETWORK_FAILURE'),
    'collection.required': (o) => {
      expect(ctx(o).collectionReady).toBe(false);
      if (after(o, 'error', 'setupCollection')) expect(ctx(o).error?.code).toBe('WALLET_CANCELED');
      else expect(outputOf<{ ready: boolean }>(o).ready).toBe(false);
    },
    // A wallet connected here without a collection goes straight on to its setup.
    'collection.settingUp': (o) => {
      expectWorking(o, 'setupCollection', { address: ctx(o).walletAddress });
      if (o.event.type !== 'checkout.collection.setup') {
        expect(after(o, 'done', 'checkCollection')).toBe(true);
        expect(ctx(o).walletAddress).toBe(NEW_WALLET);
      }
    },
    // A free item is claimed, once the wallet holds a collection.
    claiming: (o) => {
      expect(ctx(o).item.free).toBe(true);
      expect(ctx(o).collectionReady).toBe(true);
      expectWorking(o, 'claimFree', { blueprintId: FREE_ID });
    },
    claimFailed: (o) => {
      expect(after(o, 'error', 'claimFree')).toBe(true);
      expect(ctx(o).error?.code).toBe((o.event as { error?: { body: { code: string } } }).error?.body.code);
    },
    buyingListing: (o) => {
      const listing = ctx(o).listing!;
      if (!ctx(o).reopen) expect(ctx(o).collectionReady).toBe(true);
      expectRailOpened(o, 'buyListing', {
        listing: { id: listing.activeSaleListing!.id, price: listing.activeSaleListing!.price },
        walletAddress: ctx(o).walletAddress,
      });
    },
    // The card rail: after the collection check, or straight away for a charge resumed or restored.
    creditCard: (o) => {
      const c = ctx(o);
      if (c.resume) expectRailOpened(o, 'cardPayment', { resume: c.resume, email: BUYER.email });
      else {
        expectRailOpened(o, 'cardPayment', {
          ...railItemOf(c),
          email: BUYER.email,
          checkpoint: c.checkpoint,
        });
        if (!c.checkpoint) expect(c.collectionReady).toBe(true);
      }
    },
    crypto: (o) => {
      expect(ctx(o).collectionReady).toBe(true);
      expectRailOpened(o, 'cryptoPayment', { ...railItemOf(ctx(o)), email: BUYER.email });
    },
    balance: (o) => {
      if (!ctx(o).reopen) expect(ctx(o).collectionReady).toBe(true);
      expectRailOpened(o, 'balancePayment', { ...railItemOf(ctx(o)), walletAddress: ctx(o).walletAddress });
    },
    wallet: (o) => {
      expect(ctx(o).collectionReady).toBe(true);
      expectRailOpened(o, 'walletPayment', { ...railItemOf(ctx(o)), wallet: ctx(o).target });
    },
    onramp: (o) => {
      expect(ctx(o).collectionReady).toBe(true);
      expectRailOpened(o, 'onrampPayment', { ...railItemOf(ctx(o)), userId: BUYER.id });
    },
    token: (o) => {
      expect(ctx(o).collectionReady).toBe(true);
      expectRailOpened(o, 'tokenCharge', { ...railItemOf(ctx(o)), chainId: TOKEN_RAIL.chainId });
    },
    // Paid (or claimed): the purchase-complete page the rail named.
    purchased: (o) => {
      if (after(o, 'done', 'claimFree'))
        expectOutput(o, {
          kind: 'purchased',
          target: (railPaid(FREE_CLAIM.order, 'freeBlueprintClaim') as { target: unknown }).target,
        });
      else {
        const outcome = outputOf<RailOutcome>(o);
        expect(outcome.type).toBe('paid');
        expectOutput(o, { kind: 'purchased', target: (outcome as { target: unknown }).target });
      }
    },
    // Off to another page: the rail's, or the open crypto charge's hosted page resumed.
    redirecting: (o) => {
      if (o.event.type === 'checkout.charge.resume')
        expectOutput(o, { kind: 'redirecting', url: HOSTED_URL });
      else {
        const outcome = outputOf<RailOutcome>(o);
        expect(outcome.type).toBe('redirect');
        expectOutput(o, { kind: 'redirecting', url: (outcome as { url: string }).url });
      }
    },
    failed: (o) => {
      expect(outputOf<RailOutcome>(o)).toEqual(railFailed(ORDER_ID));
      expectOutput(o, { kind: 'failed', orderId: ORDER_ID });
    },
    closed: (o) => {
      expect(['checkout.close', 'checkout.back']).toContain(o.event.type);
      expectOutput(o, null);
    },
  },
};
