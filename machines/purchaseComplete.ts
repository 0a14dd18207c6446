import { assign, fromPromise, setup } from 'xstate';
import type { ChargeRail, FollowedCharge } from '#domain/chargeProgress';
import { timings } from '#domain/constants';
import { type ApiErrorBody, toErrorBody } from '#domain/errors';
import { type PurchaseJson, type PurchaseLookup, parsePurchaseTime } from '#domain/purchase';

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
