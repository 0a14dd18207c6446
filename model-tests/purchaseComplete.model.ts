import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import {
  type FollowedCharge,
  followCard,
  followCrypto,
  followOnramp,
  followOrder,
} from '#domain/chargeProgress';
import type { PurchaseJson } from '#domain/purchase';
import type { CardChargeJson, OrderJson, OrderStatus } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson, CoinbaseChargeStatus } from '#domain/schemas/crypto';
import type { WertChargeJson, WertChargeStatus } from '#domain/schemas/wert';
import {
  type PurchaseCompleteContext,
  type PurchaseCompleteInput,
  purchaseCompleteMachine,
} from '../machines/purchaseComplete';
import { after, expectNotCalled, expectOutput, expectWorking } from './expect';
import type { MachineModel } from './harness';

/** When the buyer pressed buy, and the link's purchase time (15 s before it). */
export const BOUGHT_AT = Date.UTC(2026, 10, 22, 10, 0, 0);
export const LINK_TIME = String(BOUGHT_AT - 15_000);
export const LISTING_ID = '3f0b6c1e-2a4d-4e8f-9b7a-5c1d2e3f4a5b';
export const BLUEPRINT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
export const BUYER_EMAIL = 'grace@example.com';
export const BUYER_WALLET = '0x01cf0e2f2f715450';

/** Path tests end the wait after this many ticks (the machine's own limit is 500). */
export const MODEL_MAX_TICKS = 6;

/** A resale of edition 3, bought for $40 through the listing. */
export const RESALE: PurchaseJson = {
  id: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
  transactionId: 'ab'.repeat(32),
  type: 'saleListing',
  amount: 4000,
  purchasedOn: new Date(BOUGHT_AT + 4_000).toISOString(),
  walletAddress: BUYER_WALLET,
  nft: {
    id: '4711',
    seriesNumber: 3,
    metadata: {},
    blueprint: {
      id: BLUEPRINT_ID,
      title: 'Night Market',
      previewImageUrl: '/media/seed/night-market.png',
      storefront: { id: 'c0ffee00-1234-4abc-8def-0123456789ab', name: 'Pixel Garden' },
    },
  },
  blueprintId: BLUEPRINT_ID,
  blueprintPackId: null,
  nftSaleListingId: LISTING_ID,
  order: null,
};

/** A free claim of a blueprint whose NFT Vitrine has not indexed yet (no edition in the record). */
export const FREE_CLAIM: PurchaseJson = {
  ...RESALE,
  id: 'e5f6a7b8-c9d0-4e1f-8a2b-3c4d5e6f7a8b',
  transactionId: 'cd'.repeat(32),
  type: 'freeBlueprintClaim',
  amount: 0,
  walletAddress: '0x179b6b1cb6755e31',
  nft: { ...RESALE.nft, id: '4712', seriesNumber: null },
  nftSaleListingId: null,
};

/** Edition 5 bought by card for $25. */
export const CARD_PURCHASE: PurchaseJson = {
  ...RESALE,
  id: 'f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9',
  transactionId: 'ef'.repeat(32),
  type: 'creditCard',
  amount: 2500,
  nft: { ...RESALE.nft, id: '4713', seriesNumber: 5 },
  nftSaleListingId: null,
};

export const PACK_ID = '2b3c4d5e-6f70-4819-8a2b-3c4d5e6f7081';
/**
 * Booster Pack: Series 1 bought by card for $15: three cards, one purchase each (a share of the
 * price); the purchase of card B, the one the lookup finds, carries the whole order.
 */
export const PACK_PURCHASE: PurchaseJson = {
  ...RESALE,
  id: 'a9b8c7d6-e5f4-4a3b-9c2d-1e0f9a8b7c6e',
  transactionId: '12'.repeat(32),
  type: 'creditCard',
  amount: 500,
  nft: {
    ...RESALE.nft,
    id: '4802',
    seriesNumber: 1,
    blueprint: { ...RESALE.nft.blueprint!, id: 'b2', title: 'Card B', previewImageUrl: '/media/seed/b.png' },
  },
  blueprintId: 'b2',
  blueprintPackId: PACK_ID,
  nftSaleListingId: null,
  order: {
    id: '6e5d4c3b-2a19-4807-8f6e-5d4c3b2a1909',
    item: {
      kind: 'pack',
      id: PACK_ID,
      title: 'Booster Pack: Series 1',
      coverImageUrl: '/media/seed/pack.png',
    },
    amount: 1500,
    editions: [
      {
        nftId: '4801',
        blueprintId: 'b1',
        title: 'Card A',
        previewImageUrl: '/media/seed/a.png',
        seriesNumber: 1,
      },
      {
        nftId: '4802',
        blueprintId: 'b2',
        title: 'Card B',
        previewImageUrl: '/media/seed/b.png',
        seriesNumber: 1,
      },
      {
        nftId: '4803',
        blueprintId: 'b3',
        title: 'Card C',
        previewImageUrl: '/media/seed/c.png',
        seriesNumber: 7,
      },
    ],
  },
};

/** Edition 5 of Night Market as a minted order lists it (NFT 4713). */
export const MINTED_EDITION: OrderJson['editions'][number] = {
  blueprintId: BLUEPRINT_ID,
  flowBlueprintId: 1042,
  title: 'Night Market',
  serialNumber: 5,
  nftId: '4713',
  previewImageUrl: '/media/seed/night-market.png',
  storefront: { id: 'c0ffee00-1234-4abc-8def-0123456789ab', name: 'Pixel Garden' },
};

export const ORDER_ID = '4c3b2a19-0807-4f6e-9d5c-4b3a29180706';
/**
 * An order of Night Market for $25 paid from the balance (no charge), by status; minted, its
 * edition 5 is NFT 4713.
 */
export function paidOrder(status: OrderStatus): OrderJson {
  const minted = status === 'minted';
  return {
    id: ORDER_ID,
    method: 'fusd',
    item: { kind: 'blueprint', id: BLUEPRINT_ID, title: 'Night Market' },
    amount: 2500,
    currency: 'USD',
    status,
    walletAddress: BUYER_WALLET,
    editions: [
      minted
        ? MINTED_EDITION
        : { ...MINTED_EDITION, serialNumber: status === 'minting' ? 5 : null, nftId: null },
    ],
    failure: null,
    events: [],
    createdAt: new Date(BOUGHT_AT).toISOString(),
  };
}

export const CHARGE_ID = '0d9c8b7a-6f5e-4d3c-8b2a-19f8e7d6c5b4';
export const SESSION_ID = 'sid_ubfj2q76miwundwlk72vxt2i7q';

/** A card charge as the sync answers it: authorized and on its way, declined, or refunded. */
export function cardCharge(status: 'authorized' | 'minted' | 'declined' | 'refunded'): CardChargeJson {
  const declined = status === 'declined';
  return {
    id: CHARGE_ID,
    orderId: '7e6d5c4b-3a29-4817-9f6e-5d4c3b2a1908',
    status: declined
      ? 'Declined'
      : status === 'minted'
        ? 'MINTED'
        : status === 'refunded'
          ? 'Refunded'
          : 'Authorized',
    redirectLink: null,
    success: !declined,
    unresolved: false,
    last4: '4242',
    order: {
      id: '7e6d5c4b-3a29-4817-9f6e-5d4c3b2a1908',
      method: 'creditCard',
      item: { kind: 'blueprint', id: BLUEPRINT_ID, title: 'Night Market' },
      amount: 2500,
      currency: 'USD',
      status,
      walletAddress: BUYER_WALLET,
      editions: status === 'minted' ? [MINTED_EDITION] : [],
      failure: declined
        ? { code: 'CARD_DECLINED', message: 'Purchase Failed. Your card was not charged.' }
        : null,
      events: [],
      createdAt: new Date(BOUGHT_AT).toISOString(),
    },
  };
}

const at = (minutes: number) => new Date(BOUGHT_AT + minutes * 60_000).toISOString();
/** An order of edition of Night Market for $25, with its timeline. */
function order(method: OrderJson['method'], status: OrderStatus, events: OrderJson['events']): OrderJson {
  return {
    id: '5d4c3b2a-1908-4f7e-8d6c-5b4a39281706',
    method,
    item: { kind: 'blueprint', id: BLUEPRINT_ID, title: 'Night Market' },
    amount: 2500,
    currency: 'USD',
    status,
    walletAddress: BUYER_WALLET,
    editions: status === 'minted' ? [MINTED_EDITION] : [],
    failure: null,
    events: [{ type: 'created', detail: null, at: at(0) }, ...events],
    createdAt: at(0),
  };
}
/** A payment that arrived after the order ended, and its refund as FUSD. */
const paidLate = (refund: 'sent' | 'failed' | null): OrderJson['events'] => [
  { type: 'expired', detail: 'The payment was not made in time.', at: at(60) },
  {
    type: 'paid_late',
    detail: 'Your payment arrived after the order ended: it is refunded as FUSD to your wallet.',
    at: at(62),
  },
  ...(refund === 'sent'
    ? [{ type: 'fusd_sent', detail: '$25 was sent back as FUSD to your wallet.', at: at(63) }]
    : []),
];

export const CRYPTO_CHARGE_ID = '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a';
export type RefundCase = 'open' | 'minted' | 'canceled' | 'paidLate' | 'refunded' | 'refundFailed';

/** A crypto charge of the purchase, as coinbase-charges answers it. */
export function cryptoCharge(c: RefundCase): CoinbaseChargeJson {
  const status: CoinbaseChargeStatus = {
    open: 'NEW',
    minted: 'MINTED',
    canceled: 'CANCELED',
    paidLate: 'COMPLETED',
    refunded: 'SEND_FUSD_SUCCEEDED',
    refundFailed: 'SEND_FUSD_FAILED',
  }[c] as CoinbaseChargeStatus;
  const paid = ['minted', 'paidLate', 'refunded', 'refundFailed'].includes(c) ? 2500 : 0;
  const o =
    c === 'open'
      ? order('coinbase', 'created', [])
      : c === 'minted'
        ? order('coinbase', 'minted', [{ type: 'minted', detail: null, at: at(3) }])
        : c === 'canceled'
          ? order('coinbase', 'canceled', [
              { type: 'canceled', detail: 'You canceled the payment.', at: at(2) },
            ])
          : c === 'refunded'
            ? order('coinbase', 'refunded', paidLate('sent'))
            : order('coinbase', 'expired', paidLate(null));
  return {
    id: CRYPTO_CHARGE_ID,
    type: 'directPurchase',
    status,
    context: null,
    hostedUrl: null,
    code: 'QX7T2M4P',
    amount: 2500,
    paid,
    unresolved: c === 'open',
    success: paid > 0,
    walletAddress: BUYER_WALLET,
    fusdTransactionId: c === 'refunded' || c === 'refundFailed' ? 'ab'.repeat(32) : null,
    expiresAt: at(60),
    createdAt: at(0),
    order: { ...o, method: 'coinbase' },
  };
}

export const ONRAMP_CHARGE_ID = '8e7d6c5b-4a39-4281-9706-f5e4d3c2b1a0';
/** An on-ramp charge of the purchase, as wert-charges answers it. */
export function onrampCharge(c: RefundCase): WertChargeJson {
  const status: WertChargeStatus = {
    open: 'transfer_started',
    minted: 'MINTED',
    canceled: 'order_failed',
    paidLate: 'order_complete',
    refunded: 'SEND_FUSD_SUCCEEDED',
    refundFailed: 'SEND_FUSD_FAILED',
  }[c] as WertChargeStatus;
  const o =
    c === 'open'
      ? order('wert', 'created', [])
      : c === 'minted'
        ? order('wert', 'minted', [{ type: 'minted', detail: null, at: at(3) }])
        : c === 'canceled'
          ? {
              ...order('wert', 'declined', [
                { type: 'declined', detail: 'The card payment did not go through.', at: at(2) },
              ]),
              failure: {
                code: 'PURCHASE_FAILED',
                message: 'The card payment did not go through. You were not charged.',
              },
            }
          : c === 'refunded'
            ? order('wert', 'refunded', paidLate('sent'))
            : order('wert', 'expired', paidLate(null));
  return {
    id: ONRAMP_CHARGE_ID,
    clickId: ONRAMP_CHARGE_ID,
    status,
    partnerId: '01HVSANDBXPARTNER000000000',
    origin: 'http://127.0.0.1:8792',
    signedData: {
      address: BUYER_WALLET,
      commodity: 'FUSD',
      commodity_amount: 25,
      network: 'flow-emulator',
      sc_address: '0xf8d6e0586b0a20c7',
      sc_input_data: '0x7b7d',
      signature: 'AB'.repeat(64),
    },
    itemInfo: { name: 'Night Market' },
    amount: 2500,
    walletAddress: BUYER_WALLET,
    providerOrderId: '01HVORDER0000000000000000A',
    txId: 'cd'.repeat(32),
    unresolved: c === 'open',
    success: c === 'minted',
    cancellable: false,
    fusdTransactionId: c === 'refunded' || c === 'refundFailed' ? 'ef'.repeat(32) : null,
    expiresAt: at(90),
    createdAt: at(0),
    order: o,
  };
}

/** What a rail's charge reads as on the page, by case. */
export function followed(rail: 'card' | 'crypto' | 'onramp', c: RefundCase): FollowedCharge {
  if (rail === 'crypto') return followCrypto(cryptoCharge(c));
  if (rail === 'onramp') return followOnramp(onrampCharge(c));
  const card = { open: 'authorized', minted: 'minted', canceled: 'declined' } as const;
  return followCard(cardCharge(c in card ? card[c as keyof typeof card] : 'refunded'));
}

const signedIn = { email: BUYER_EMAIL, walletAddress: BUYER_WALLET };
const resale = { id: LISTING_ID, kind: 'nftSaleListing', serial: '3', type: 'saleListing' };

/**
 * What the sync and the reads of the purchase's charge answer, by its rail: the card's as before
 * (on its way, minted, declined, refunded); a crypto or on-ramp charge also paid after its order
 * ended, then refunded as FUSD, or its refund refused. The sync answers what a buyer coming back
 * from the provider finds; the reads, what follows.
 */
function chargeEvents(s: AnyMachineSnapshot) {
  const { charge, order } = s.context as PurchaseCompleteContext;
  const rail = charge?.rail;
  // An order no charge paid: on its way, minted, ended unpaid or refunded.
  if (!rail && order)
    return (['authorized', 'minted', 'expired', 'refunded'] as const).map((status) => ({
      type: 'xstate.done.actor.follow',
      output: followOrder(paidOrder(status)),
    }));
  if (!rail) return [];
  const sync: RefundCase[] =
    rail === 'card' ? ['open', 'canceled'] : ['open', 'canceled', 'paidLate', 'refunded'];
  const reads: RefundCase[] =
    rail === 'card'
      ? ['open', 'minted', 'canceled', 'refunded']
      : ['open', 'minted', 'canceled', 'paidLate', 'refunded', 'refundFailed'];
  return [
    ...sync.map((c) => ({ type: 'xstate.done.actor.syncCharge', output: followed(rail, c) })),
    ...reads.map((c) => ({ type: 'xstate.done.actor.follow', output: followed(rail, c) })),
  ];
}

/** What the step's actor answered. */
const outputOf = <T>(o: { event: unknown }) => (o.event as { output: T }).output;

export const purchaseCompleteModel: MachineModel<typeof purchaseCompleteMachine> = {
  machine: purchaseCompleteMachine,
  fakes: ['findPurchase', 'syncCharge', 'follow'],
  // A short limit keeps the graph small; the 500-tick limit itself is checked in the unit tests.
  provide: { guards: { ticksLeft: ({ context }) => context.ticks < MODEL_MAX_TICKS } },
  scenarios: [
    {
      name: 'a resale bought just now',
      input: { ...resale, time: LINK_TIME, ...signedIn } satisfies PurchaseCompleteInput,
    },
    {
      name: 'a free claim seen by a visitor',
      input: {
        id: BLUEPRINT_ID,
        kind: 'blueprint',
        time: LINK_TIME,
        serial: '12',
        type: 'freeBlueprintClaim',
        email: null,
        walletAddress: null,
      } satisfies PurchaseCompleteInput,
    },
    {
      name: 'a card purchase back from 3-D Secure',
      input: {
        id: BLUEPRINT_ID,
        kind: 'blueprint',
        time: LINK_TIME,
        type: 'creditCard',
        ...signedIn,
        charge: { rail: 'card', id: CHARGE_ID, ckoSessionId: SESSION_ID },
      } satisfies PurchaseCompleteInput,
    },
    {
      name: 'a crypto purchase back from the hosted page',
      input: {
        id: BLUEPRINT_ID,
        kind: 'blueprint',
        time: LINK_TIME,
        type: 'coinbase',
        ...signedIn,
        charge: { rail: 'crypto', id: CRYPTO_CHARGE_ID, ckoSessionId: null },
      } satisfies PurchaseCompleteInput,
    },
    {
      name: 'an on-ramp purchase paid in the widget',
      input: {
        id: BLUEPRINT_ID,
        kind: 'blueprint',
        time: LINK_TIME,
        type: 'wert',
        ...signedIn,
        charge: { rail: 'onramp', id: ONRAMP_CHARGE_ID, ckoSessionId: null },
      } satisfies PurchaseCompleteInput,
    },
    {
      name: 'a balance purchase following its order',
      input: {
        id: BLUEPRINT_ID,
        kind: 'blueprint',
        time: LINK_TIME,
        type: 'fusd',
        ...signedIn,
        order: ORDER_ID,
      } satisfies PurchaseCompleteInput,
    },
    {
      name: 'a link without a purchase time',
      input: { ...resale, time: undefined, ...signedIn } satisfies PurchaseCompleteInput,
    },
    {
      name: 'a link with a malformed purchase time',
      input: { ...resale, time: 'yesterday', ...signedIn } satisfies PurchaseCompleteInput,
    },
  ],
  events: (s) => [
    { type: 'xstate.after.pollInterval.purchaseComplete.polling.waiting' },
    {
      type: 'xstate.done.actor.findPurchase',
      // A purchase paid through a charge: edition 5 for $25 (whichever rail).
      output: s.context.charge ? CARD_PURCHASE : s.context.kind === 'blueprint' ? FREE_CLAIM : RESALE,
    },
    { type: 'xstate.done.actor.findPurchase', output: null },
    ...chargeEvents(s),
    {
      type: 'xstate.error.actor.follow',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
    },
    {
      type: 'xstate.error.actor.syncCharge',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
    },
    {
      type: 'xstate.error.actor.findPurchase',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
    },
  ],
  // The exact tick count (bounded by MODEL_MAX_TICKS) keeps states before and after a lookup apart.
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.ticks,
      s.context.failure,
      s.context.purchase?.id ?? null,
      s.context.followed?.stage ?? null,
    ]),
  expect: {
    // A buyer back from the charge's provider: the charge is synced first, with the 3-D Secure session.
    syncing: (o) => {
      expect(o.event.type).toBe('xstate.init');
      expectWorking(o, 'syncCharge', o.snapshot.context.charge);
      expect(o.snapshot.context.charge).not.toBeNull();
    },
    // One read per tick, never more than the limit; an order or charge is followed, never looked up by time.
    polling: (o) => {
      const c = o.snapshot.context;
      expect(c.ticks).toBeLessThanOrEqual(MODEL_MAX_TICKS);
      expect(o.calls.length).toBeLessThanOrEqual(c.ticks + (c.charge ? 1 : 0));
      if (c.order !== null || c.charge !== null) expectNotCalled(o, 'findPurchase');
      else expectNotCalled(o, 'follow');
      expect(c.failure).toBeNull();
    },
    'polling.waiting': (o) => {
      if (o.event.type.startsWith('xstate.after.pollInterval'))
        expect(o.snapshot.context.ticks).toBe(o.before.context.ticks + 1);
      // A read that fails or finds nothing waits for the next tick; a charge on its way is kept.
      if (after(o, 'done', 'follow') || after(o, 'done', 'syncCharge'))
        expect(o.snapshot.context.followed).toEqual(outputOf<unknown>(o));
    },
    'polling.following': (o) => {
      const c = o.snapshot.context;
      expect(c.ticks).toBe(o.before.context.ticks + 1);
      expectWorking(o, 'follow', { charge: c.charge, order: c.order });
    },
    // Every 4th tick the buyer's purchases since the link's time are looked up.
    'polling.checking': (o) => {
      const c = o.snapshot.context;
      expect(c.ticks % 4).toBe(0);
      expect(c.ticks).toBe(o.before.context.ticks + 1);
      expect(c.since).toBe(Number(LINK_TIME));
      expectWorking(o, 'findPurchase', { id: c.id, kind: c.kind, since: Number(LINK_TIME) });
    },
    // Done: the purchase found, or the order followed with its editions minted.
    complete: (o) => {
      if (after(o, 'done', 'findPurchase')) {
        const purchase = outputOf<PurchaseJson>(o);
        expectOutput(o, { purchase, order: null });
      } else {
        expect(after(o, 'done', 'follow')).toBe(true);
        const charge = outputOf<FollowedCharge>(o);
        expect(charge.stage).toBe('minted');
        expectOutput(o, { purchase: null, order: charge.order });
      }
    },
    // The payment went back (or could not): the page shows the refund with the order's timeline.
    refunded: (o) => {
      expectOutput(o, null);
      const { followed: charge, ticks } = o.snapshot.context;
      expect(charge?.refund).not.toBeNull();
      if (charge?.stage === 'refunding') expect(ticks).toBe(MODEL_MAX_TICKS);
      else expect(['refunded', 'refundFailed']).toContain(charge?.stage);
    },
    failed: (o) => {
      expectOutput(o, null);
      const c = o.snapshot.context;
      if (c.failure === 'invalidTime') {
        expect(o.event.type).toBe('xstate.init');
        expect(c.since).toBeNull();
        expect(c.order === null && c.charge === null).toBe(true);
      } else if (c.failure === 'lookupFailed') {
        expect(after(o, 'error', 'findPurchase')).toBe(true);
        expect(c.error).toEqual({ code: 'NETWORK_FAILURE', message: 'Unknown connection error' });
      } else if (c.failure === 'paymentFailed') {
        expect(after(o, 'done', 'follow') || after(o, 'done', 'syncCharge')).toBe(true);
        const charge = outputOf<FollowedCharge>(o);
        expect(charge.stage).toBe('failed');
        expect(c.error).toEqual(
          charge.order?.failure
            ? { code: charge.order.failure.code, message: charge.order.failure.message }
            : null,
        );
      } else {
        expect(c.failure).toBe('timedOut');
        expect(c.ticks).toBe(MODEL_MAX_TICKS);
        expect(c.followed?.stage ?? null).not.toBe('refunding');
      }
    },
  },
};
