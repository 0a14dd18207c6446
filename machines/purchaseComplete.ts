import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import type { ChargeRail, FollowedCharge } from '#domain/chargeProgress';
import { SUPPORT_EMAIL, timings } from '#domain/constants';
import { toDate } from '#domain/dates';
import { type ApiErrorBody, toErrorBody } from '#domain/errors';
import { formatUsd } from '#domain/money';
import { type PurchaseJson, type PurchaseLookup, parsePurchaseTime, purchasedItem } from '#domain/purchase';
import type { OrderJson } from '#domain/schemas/checkout';
import { orderTimeline, type TimelineEntry } from './checkoutFailed';

/**
 * The purchase-complete page (/ordercomplete/{id}?e&t&serial&type): after a purchase the buyer waits
 * here until the purchase shows among their own. A tick comes every 750 ms (`pollInterval`); every
 * 4th tick looks for a purchase of the item (`id` of kind `e`) made at or after the link's purchase
 * time `t`. Found: the purchase is complete. A missing or malformed `t`, a failed lookup, or 500
 * ticks (`maxTicks`, the `ticksLeft` guard) without it: the purchase failed.
 *
 * Ticks pause while a lookup runs, so lookups never overlap.
 *
 * A purchase paid through a charge also names it (query `charge`; its rail by `type`: a card,
 * crypto on the provider's hosted page, or the card-to-crypto on-ramp), and after 3-D Secure the
 * session the buyer came back with (`cko-session-id`): the page first asks the server to sync the
 * charge with its provider, then reads the charge on every tick (`FollowedCharge`, see
 * domain/chargeProgress.ts). A charge whose order ended unpaid (declined, canceled, expired,
 * voided) ends the wait at once with the reason; one whose payment went back, or could not be sent
 * back, ends it on the refund, with the order's timeline; a payment on its way back is waited for,
 * and told as such when the ticks run out. A charge whose editions are minted brings the lookup
 * forward to that tick, so the buyer does not wait for the 4th.
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
  /** A purchase paid through a charge: its rail, its id and the 3-D Secure session of a card's. */
  charge?: ChargeRef | null;
}
/** The charge a purchase was paid with. */
export interface ChargeRef {
  rail: ChargeRail;
  id: string;
  /** The 3-D Secure session a card buyer came back with (sid_…); null otherwise. */
  ckoSessionId: string | null;
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
  charge: ChargeRef | null;
  /** The charge as last read. */
  followed: FollowedCharge | null;
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
    /**
     * The charge as its provider has it now: PATCH checkout-com-charges/{id}/actions/sync (a card),
     * PATCH coinbase-charges/{id} {} (crypto), PATCH wert-charges/{id} {} (the on-ramp).
     */
    syncCharge: fromPromise<FollowedCharge, ChargeRef>(async () => {
      throw new Error('syncCharge not provided');
    }),
    /** GET checkout-com-charges/{id}, coinbase-charges/{id} or wert-charges/{id}: as the server has it. */
    getCharge: fromPromise<FollowedCharge, ChargeRef>(async () => {
      throw new Error('getCharge not provided');
    }),
  },
  actions: {
    keepCharge: assign({ followed: (_, charge: FollowedCharge) => charge }),
    /** The order's failure, as the buyer reads it. */
    rememberPaymentFailure: assign((_, charge: FollowedCharge) => ({
      failure: 'paymentFailed' as const,
      followed: charge,
      error: charge.order?.failure
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
    chargeFailed: (_, charge: FollowedCharge) => charge.stage === 'failed',
    chargeMinted: (_, charge: FollowedCharge) => charge.stage === 'minted',
    /** The payment went back, or sending it back failed: nothing more will happen by itself. */
    refundSettled: (_, charge: FollowedCharge) =>
      charge.stage === 'refunded' || charge.stage === 'refundFailed',
    /** The last read said the payment is on its way back. */
    refundUnderWay: ({ context }) => context.followed?.stage === 'refunding',
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
    followed: null,
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
          {
            guard: { type: 'refundSettled', params: ({ event }) => event.output },
            target: 'refunded',
            actions: { type: 'keepCharge', params: ({ event }) => event.output },
          },
          { target: 'polling', actions: { type: 'keepCharge', params: ({ event }) => event.output } },
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
            input: ({ context }) => context.charge!,
            onDone: [
              {
                guard: { type: 'chargeFailed', params: ({ event }) => event.output },
                target: '#purchaseComplete.failed',
                actions: { type: 'rememberPaymentFailure', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'refundSettled', params: ({ event }) => event.output },
                target: '#purchaseComplete.refunded',
                actions: { type: 'keepCharge', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'chargeMinted', params: ({ event }) => event.output },
                target: 'checking',
                actions: { type: 'keepCharge', params: ({ event }) => event.output },
              },
              {
                guard: 'lookupDue',
                target: 'checking',
                actions: { type: 'keepCharge', params: ({ event }) => event.output },
              },
              { target: 'next', actions: { type: 'keepCharge', params: ({ event }) => event.output } },
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
            // Out of time while the payment is on its way back: the page says so.
            { guard: 'refundUnderWay', target: '#purchaseComplete.refunded' },
            { target: '#purchaseComplete.failed', actions: assign({ failure: 'timedOut' }) },
          ],
        },
      },
    },
    complete: { type: 'final' },
    /** The order was not served and the payment went back (or goes back, or could not be sent back). */
    refunded: { type: 'final' },
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
  panel: 'pending' | 'success' | 'error' | 'refund';
  title: string;
  text: string;
  busy: boolean;
  /** The text is a problem the buyer must know of (an alert), not news. */
  alert: boolean;
  details?: PurchaseCompleteDetails;
  /** What to do when a purchase failed, and whom to write to. */
  help?: { text: string; supportEmail: string };
  /** The order's events, oldest first, when it was not served and the payment goes back. */
  timeline?: TimelineEntry[];
  /** The item page, to try again. */
  itemId?: string | null;
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

/** Why an order was not served, as its timeline tells it. */
function notServedReason(order: OrderJson | null): string {
  const events = order?.events.map((e) => e.type) ?? [];
  if (events.includes('paid_late'))
    return 'Your payment arrived after the order ended, when this edition was no longer held for you, so nothing was minted.';
  if (events.includes('mint_failed')) return 'The edition could not be minted.';
  return 'This purchase could not be completed, so nothing was minted.';
}

/** The refund of an order that was not served, in words. */
function refundView(followed: FollowedCharge): PurchaseCompleteView {
  const { order, refund } = followed;
  const amount = formatUsd(refund?.cents ?? order?.amount ?? 0);
  const to = refund?.to === 'card' ? 'to your card' : 'as FUSD to your wallet';
  const reason = notServedReason(order);
  const base = {
    panel: 'refund' as const,
    busy: false,
    timeline: orderTimeline(order?.events ?? []),
    itemId: order?.item.id ?? null,
  };
  if (followed.stage === 'refunded')
    return {
      ...base,
      title: 'Payment Refunded',
      text: `${reason} ${amount} was refunded ${to}.`,
      alert: false,
    };
  if (followed.stage === 'refundFailed')
    return {
      ...base,
      title: 'Refund Delayed',
      text: `${reason} We could not send the ${amount} you paid back ${to} yet.`,
      alert: true,
      help: {
        text: 'Our team has been told and will send it. Contact support if it has not arrived within a day.',
        supportEmail: SUPPORT_EMAIL,
      },
    };
  return {
    ...base,
    title: 'Refund on Its Way',
    text: `${reason} The ${amount} you paid is being sent back ${to}.`,
    alert: false,
    help: {
      text: 'It usually arrives within minutes. Contact support if it has not arrived within an hour.',
      supportEmail: SUPPORT_EMAIL,
    },
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
      alert: false,
      details: details(context.purchase, context),
    };
  }
  if (snapshot.matches('refunded') && context.followed) return refundView(context.followed);
  if (snapshot.status === 'done' && context.failure === 'paymentFailed') {
    const card = context.charge?.rail !== 'crypto' && context.charge?.rail !== 'onramp';
    return {
      panel: 'error',
      title: 'Purchase Failed',
      text: context.error?.message || (card ? 'Your card was not charged.' : 'You were not charged.'),
      busy: false,
      alert: true,
      help: {
        text: card
          ? 'Nothing was minted. You can try again with another card.'
          : 'Nothing was minted. You can try again from the item page.',
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
      alert: true,
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
    alert: false,
  };
}
