import { assign, fromPromise, setup } from 'xstate';
import type { ChargeRail, FollowedCharge } from '#domain/chargeProgress';
import { timings } from '#domain/constants';
import { type ApiErrorBody, toErrorBody } from '#domain/errors';
import { type PurchaseJson, type PurchaseLookup, parsePurchaseTime } from '#domain/purchase';
import type { OrderJson } from '#domain/schemas/checkout';

/**
 * The purchase-complete page (/ordercomplete/{id}?e&t&serial&type[&order][&charge]): after a
 * purchase the buyer waits here until it is done. A tick comes every 750 ms (`pollInterval`); 500
 * ticks (`maxTicks`, the `ticksLeft` guard) without an end: the purchase failed.
 *
 * A purchase of new editions names its order (query `order`) and, when a charge paid it, the charge
 * (query `charge`; its rail by `type`: a card, crypto on the provider's hosted page, or the
 * card-to-crypto on-ramp). The page follows the order, one read per tick (`follow`): through the
 * charge when there is one (its answer carries the order, and the refund the charge knows of),
 * else GET orders/{id} (`FollowedCharge`, see domain/chargeProgress.ts). After 3-D Secure the link
 * also has the session the buyer came back with (`cko-session-id`): a charge is first synced with
 * its provider. Editions minted: the purchase is complete, the receipt is the order's. An order
 * that ended unpaid (declined, canceled, expired, voided) ends the wait at once with the reason;
 * one whose payment went back, or could not be sent back, ends it on the refund, with the order's
 * timeline; a payment on its way back is waited for, and told as such when the ticks run out.
 *
 * A link with no order and no charge (a resale, a link from before orders were named) looks, every
 * 4th tick, for a purchase of the item (`id` of kind `e`) among the buyer's last 10 purchases made
 * at or after the link's purchase time `t` (`findPurchase`). Found: the purchase is complete. A
 * missing or malformed `t`, or a failed lookup: the purchase failed.
 *
 * Ticks pause while a read runs, so reads never overlap.
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
  /** The order of new editions bought (query `order`): the page follows it. */
  order?: string | null;
  /** A purchase paid through a charge: its rail, its id and the 3-D Secure session of a card's. */
  charge?: ChargeRef | null;
}
/** What the page follows: the charge that paid the order, else the order itself. */
export interface FollowRef {
  charge: ChargeRef | null;
  order: string | null;
}
/** A completed purchase: the order followed (its editions minted), or the purchase the lookup found. */
export interface PurchaseCompleteOutput {
  order: OrderJson | null;
  purchase: PurchaseJson | null;
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
  /** The order followed (its id), when the link names one. */
  order: string | null;
  charge: ChargeRef | null;
  /** The order (through its charge, when one paid it) as last read. */
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
    output: {} as PurchaseCompleteOutput | null,
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
    /**
     * The order as the server has it: through its charge (GET checkout-com-charges/{id},
     * coinbase-charges/{id} or wert-charges/{id}) when one paid it, else GET orders/{id}.
     */
    follow: fromPromise<FollowedCharge, FollowRef>(async () => {
      throw new Error('follow not provided');
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
    /** The link names an order or a charge: the page follows it, no lookup by time. */
    follows: ({ context }) => context.order !== null || context.charge !== null,
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
    order: input.order ?? null,
    charge: input.charge ?? null,
    followed: null,
    error: null,
  }),
  initial: 'starting',
  output: ({ context }) => {
    if (context.purchase) return { purchase: context.purchase, order: null };
    if (context.followed?.stage === 'minted') return { purchase: null, order: context.followed.order };
    return null;
  },
  states: {
    starting: {
      always: [
        { guard: 'hasCharge', target: 'syncing' },
        { guard: 'follows', target: 'polling' },
        { guard: 'invalidTime', target: 'failed', actions: assign({ failure: 'invalidTime' }) },
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
            { guard: 'follows', target: 'following' },
            { guard: 'lookupDue', target: 'checking' },
            { target: 'next' },
          ],
        },
        following: {
          invoke: {
            id: 'follow',
            src: 'follow',
            input: ({ context }) => ({ charge: context.charge, order: context.order }),
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
                target: '#purchaseComplete.complete',
                actions: { type: 'keepCharge', params: ({ event }) => event.output },
              },
              { target: 'next', actions: { type: 'keepCharge', params: ({ event }) => event.output } },
            ],
            // An order that cannot be read this tick is read again the next.
            onError: { target: 'next' },
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
