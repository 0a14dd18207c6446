import { type PurchaseCompleteInput, purchaseCompleteMachine } from '../machines/purchaseComplete';
import type { PurchaseJson } from '../src/domain/purchase';
import type { CardChargeJson } from '../src/domain/schemas/checkout';
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

export const CHARGE_ID = '0d9c8b7a-6f5e-4d3c-8b2a-19f8e7d6c5b4';
export const SESSION_ID = 'sid_ubfj2q76miwundwlk72vxt2i7q';

/** A card charge as the sync answers it: authorized and on its way, or declined. */
export function cardCharge(status: 'authorized' | 'minted' | 'declined'): CardChargeJson {
  const declined = status === 'declined';
  return {
    id: CHARGE_ID,
    orderId: '7e6d5c4b-3a29-4817-9f6e-5d4c3b2a1908',
    status: declined ? 'Declined' : status === 'minted' ? 'MINTED' : 'Authorized',
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
      editions: [],
      failure: declined
        ? { code: 'CARD_DECLINED', message: 'Purchase Failed. Your card was not charged.' }
        : null,
      events: [],
      createdAt: new Date(BOUGHT_AT).toISOString(),
    },
  };
}

const signedIn = { email: BUYER_EMAIL, walletAddress: BUYER_WALLET };
const resale = { id: LISTING_ID, kind: 'nftSaleListing', serial: '3', type: 'saleListing' };

export const purchaseCompleteModel: MachineModel<typeof purchaseCompleteMachine> = {
  machine: purchaseCompleteMachine,
  fakes: ['findPurchase', 'syncCharge', 'getCharge'],
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
        charge: { id: CHARGE_ID, ckoSessionId: SESSION_ID },
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
      output:
        s.context.type === 'creditCard'
          ? CARD_PURCHASE
          : s.context.kind === 'blueprint'
            ? FREE_CLAIM
            : RESALE,
    },
    { type: 'xstate.done.actor.findPurchase', output: null },
    { type: 'xstate.done.actor.syncCharge', output: cardCharge('authorized') },
    { type: 'xstate.done.actor.syncCharge', output: cardCharge('declined') },
    { type: 'xstate.done.actor.getCharge', output: cardCharge('authorized') },
    { type: 'xstate.done.actor.getCharge', output: cardCharge('minted') },
    { type: 'xstate.done.actor.getCharge', output: cardCharge('declined') },
    {
      type: 'xstate.error.actor.getCharge',
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
    JSON.stringify([s.value, s.context.ticks, s.context.failure, s.context.purchase?.id ?? null]),
};
