import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { SUPPORT_EMAIL, timings } from '../src/domain/constants';
import { toDate } from '../src/domain/dates';
import { type ApiErrorBody, toErrorBody } from '../src/domain/errors';
import { formatUsd } from '../src/domain/money';
import {
  type PurchaseJson,
  type PurchaseLookup,
  parsePurchaseTime,
  purchasedItem,
} from '../src/domain/purchase';
import { type CardChargeJson, orderFailed } from '../src/domain/schemas/checkout';

/**
 * The purchase-complete page (/ordercomplete/{id}?e&t&serial&type): after a purchase the buyer waits
 * here until the purchase shows among their own. A tick comes every 750 ms (`pollInterval`); every
 * 4th tick looks for a purchase of the item (`id` of kind `e`) made at or after the link's purchase
 * time `t`. Found: the purchase is complete. A missing or malformed `t`, a failed lookup, or 500
 * ticks (`maxTicks`, the `ticksLeft` guard) without it: the purchase failed.
 *
 * Ticks pause while a lookup runs, so lookups never overlap.
 *
 * A card purchase's link also names its charge (query `charge`), and after 3-D Secure the session the
 * buyer came back with (`cko-session-id`): the page first asks the server to sync the charge with the
 * card provider, then reads the charge on every tick. A charge that failed (declined, canceled,
 * expired, voided or refunded) ends the wait at once with the reason; a charge whose editions are
 * minted brings the lookup forward to that tick, so the buyer does not wait for the 4th.
 */
export interface PurchaseCompleteInput {
  /** The item bought: a blueprint, pack or resale listing id (the link's path). */
  id: string;
  /** What `id` names (query `e`): blueprint, blueprintPack or nftSaleListing. */
  kind: string;
  /** The purchase time of the link (query `t`): epoch milliseconds as text; may be missing. */
  time: string | null | undefined;
  /** The edition bought (query `serial`), when the link knows it. */
  serial?: string | null;
  /** How it was bought (query `type`): saleListing, creditCard, freeBlueprintClaim, … */
  type?: string | null;
  /** The signed-in buyer's email and wallet; null for a visitor. */
  email: string | null;
  walletAddress: string | null;
  /** A card purchase: its charge and the 3-D Secure session the buyer came back with. */
  charge?: { id: string; ckoSessionId: string | null } | null;
}
export type PurchaseFailure = 'invalidTime' | 'lookupFailed' | 'timedOut' | 'paymentFailed';
export interface PurchaseCompleteContext {
  id: string;
  kind: string;
  /** The purchase time in epoch milliseconds; null when the link has none that reads as one. */
  since: number | null;
  serial: string | null;
  type: string | null;
  email: string | null;
  walletAddress: string | null;
  /** Ticks since the page opened. */
  ticks: number;
  purchase: PurchaseJson | null;
  failure: PurchaseFailure | null;
  charge: { id: string; ckoSessionId: string | null } | null;
  /** Why the payment failed, as the server explains it. */
  error: ApiErrorBody | null;
}

/** Every this many ticks the buyer's purchases are looked up. */
export const LOOKUP_EVERY_TICKS = 4;

export const purchaseCompleteMachine = setup({
  types: {
    context: {} as PurchaseCompleteContext,
    input: {} as PurchaseCompleteInput,
    output: {} as PurchaseJson | null,
    tags: {} as 'busy',
  },
  actors: {
    /** The buyer's purchase of the item made at or after `since` (GET nfts/purchases), or null. */
    findPurchase: fromPromise<PurchaseJson | null, PurchaseLookup>(async () => {
      throw new Error('findPurchase not provided');
    }),
    /** PATCH checkout-com-charges/{id}/actions/sync: the charge as the card provider has it now. */
    syncCharge: fromPromise<CardChargeJson, { id: string; ckoSessionId: string | null }>(async () => {
      throw new Error('syncCharge not provided');
    }),
    /** GET checkout-com-charges/{id}: the charge and its order as the server has them. */
    getCharge: fromPromise<CardChargeJson, { id: string }>(async () => {
      throw new Error('getCharge not provided');
    }),
  },
  actions: {
    /** The order's failure, as the buyer reads it. */
    rememberPaymentFailure: assign((_, charge: CardChargeJson) => ({
      failure: 'paymentFailed' as const,
      error: charge.order.failure
        ? { code: charge.order.failure.code, message: charge.order.failure.message }
        : null,
    })),
  },
  delays: {
    pollInterval: timings.purchaseCompletePollMs,
  },
  guards: {
    invalidTime: ({ context }) => context.since === null,
    lookupDue: ({ context }) => context.ticks % LOOKUP_EVERY_TICKS === 0,
    /** Fewer than maxTicks (500) ticks so far. */
    ticksLeft: ({ context }) => context.ticks < timings.purchaseCompleteMaxTicks,
    found: (_, purchase: PurchaseJson | null) => purchase !== null,
    hasCharge: ({ context }) => context.charge !== null,
    chargeFailed: (_, charge: CardChargeJson) => orderFailed(charge.order.status),
    chargeMinted: (_, charge: CardChargeJson) => charge.order.status === 'minted',
  },
}).createMachine({
  id: 'purchaseComplete',
  context: ({ input }) => ({
    id: input.id,
    kind: input.kind,
    since: parsePurchaseTime(input.time),
    serial: input.serial ?? null,
    type: input.type ?? null,
    email: input.email,
    walletAddress: input.walletAddress,
    ticks: 0,
    purchase: null,
    failure: null,
    charge: input.charge ?? null,
    error: null,
  }),
  initial: 'starting',
  output: ({ context }) => context.purchase,
  states: {
    starting: {
      always: [
        { guard: 'invalidTime', target: 'failed', actions: assign({ failure: 'invalidTime' }) },
        { guard: 'hasCharge', target: 'syncing' },
        { target: 'polling' },
      ],
    },
    syncing: {
      tags: ['busy'],
      invoke: {
        id: 'syncCharge',
        src: 'syncCharge',
        input: ({ context }) => context.charge!,
        onDone: [
          {
            guard: { type: 'chargeFailed', params: ({ event }) => event.output },
            target: 'failed',
            actions: { type: 'rememberPaymentFailure', params: ({ event }) => event.output },
          },
          { target: 'polling' },
        ],
        // Not synced now: the provider's webhook settles the charge; the lookups go on.
        onError: { target: 'polling' },
      },
    },
    polling: {
      tags: ['busy'],
      initial: 'waiting',
      states: {
        waiting: {
          after: {
            pollInterval: {
              target: 'ticked',
              actions: assign({ ticks: ({ context }) => context.ticks + 1 }),
            },
          },
        },
        ticked: {
          always: [
            { guard: 'hasCharge', target: 'checkingCharge' },
            { guard: 'lookupDue', target: 'checking' },
            { target: 'next' },
          ],
        },
        checkingCharge: {
          invoke: {
            id: 'getCharge',
            src: 'getCharge',
            input: ({ context }) => ({ id: context.charge!.id }),
            onDone: [
              {
                guard: { type: 'chargeFailed', params: ({ event }) => event.output },
                target: '#purchaseComplete.failed',
                actions: { type: 'rememberPaymentFailure', params: ({ event }) => event.output },
              },
              { guard: { type: 'chargeMinted', params: ({ event }) => event.output }, target: 'checking' },
              { guard: 'lookupDue', target: 'checking' },
              { target: 'next' },
            ],
            // A charge that cannot be read this tick is read again the next; the lookups go on.
            onError: [{ guard: 'lookupDue', target: 'checking' }, { target: 'next' }],
          },
        },
        checking: {
          invoke: {
            id: 'findPurchase',
            src: 'findPurchase',
            input: ({ context }) => ({ id: context.id, kind: context.kind, since: context.since! }),
            onDone: [
              {
                guard: { type: 'found', params: ({ event }) => event.output },
                target: '#purchaseComplete.complete',
                actions: assign({ purchase: ({ event }) => event.output }),
              },
              { target: 'next' },
            ],
            onError: {
              target: '#purchaseComplete.failed',
              actions: assign({ failure: 'lookupFailed', error: ({ event }) => toErrorBody(event.error) }),
            },
          },
        },
        next: {
          always: [
            { guard: 'ticksLeft', target: 'waiting' },
            { target: '#purchaseComplete.failed', actions: assign({ failure: 'timedOut' }) },
          ],
        },
      },
    },
    complete: { type: 'final' },
    failed: { type: 'final' },
  },
});

/** What the purchase-complete page shows of a completed purchase. */
export interface PurchaseCompleteDetails {
  title: string;
  previewImageUrl: string | null;
  /** "#3"; null when neither the purchase nor the link knows the edition. */
  edition: string | null;
  /** The storefront that sold it. */
  partner: string | null;
  /** "$40", "$12.50" or "Free". */
  total: string;
  /** Date and time of the purchase, in the browser's time zone. */
  purchasedOn: string;
  email: string | null;
  /** The wallet the NFT went to. */
  walletAddress: string;
}
export interface PurchaseCompleteView {
  panel: 'pending' | 'success' | 'error';
  title: string;
  text: string;
  busy: boolean;
  details?: PurchaseCompleteDetails;
  /** What to do when a purchase failed, and whom to write to. */
  help?: { text: string; supportEmail: string };
}

const purchaseDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' });

/** A price in cents as the page shows it: "Free" for nothing. */
export const formatTotal = (cents: number) => (cents === 0 ? 'Free' : formatUsd(cents));

function details(purchase: PurchaseJson, context: PurchaseCompleteContext): PurchaseCompleteDetails {
  const { blueprint } = purchase.nft;
  const serial = purchase.nft.seriesNumber ?? context.serial;
  return {
    ...purchasedItem(purchase),
    edition: serial === null || serial === '' ? null : `#${serial}`,
    partner: blueprint?.storefront.name ?? null,
    total: formatTotal(purchase.amount),
    purchasedOn: purchaseDate.format(toDate(purchase.purchasedOn)),
    email: context.email,
    walletAddress: purchase.walletAddress,
  };
}

export function connectPurchaseComplete(
  snapshot: SnapshotFrom<typeof purchaseCompleteMachine>,
): PurchaseCompleteView {
  const { context } = snapshot;
  if (snapshot.status === 'done' && context.purchase) {
    return {
      panel: 'success',
      title: 'Purchase Complete',
      text: 'Thank you! The collectible is yours.',
      busy: false,
      details: details(context.purchase, context),
    };
  }
  if (snapshot.status === 'done' && context.failure === 'paymentFailed') {
    return {
      panel: 'error',
      title: 'Purchase Failed',
      text: context.error?.message || 'Your card was not charged.',
      busy: false,
      help: {
        text: 'Nothing was minted. You can try again with another card.',
        supportEmail: SUPPORT_EMAIL,
      },
    };
  }
  if (snapshot.status === 'done') {
    return {
      panel: 'error',
      title: 'Uh Oh',
      text: "Something went wrong. We're looking into it!",
      busy: false,
      help: {
        text: 'Please check your collection, and contact support if you were charged and nothing arrives within an hour.',
        supportEmail: SUPPORT_EMAIL,
      },
    };
  }
  return {
    panel: 'pending',
    title: 'Almost there',
    text: "We're confirming your purchase. It may take a couple of minutes.",
    busy: snapshot.hasTag('busy'),
  };
}
