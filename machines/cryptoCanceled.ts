import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd } from '#domain/money';
import { type OrderStatus, orderFailed } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import { notFound, orderTimeline, type TimelineEntry } from './checkoutFailed';

/**
 * The page a crypto payment the buyer canceled ends on (/coinbasecanceled/{chargeId}): the crypto
 * provider sends the buyer here from its hosted page. The charge is read from the provider and
 * applied at once (the cancel shows now, not when the webhook comes); when that fails, the charge
 * shows as we know it. Then the charge shows with what happened to it and its order's timeline. A
 * charge that is not the buyer's, or unknown, is not found.
 */
export interface CryptoCanceledInput {
  chargeId: string;
}
export interface CryptoCanceledContext extends CryptoCanceledInput {
  charge: CoinbaseChargeJson | null;
  error: ApiErrorBody | null;
}
export type CryptoCanceledEvent = { type: 'charge.retry' };

export const cryptoCanceledMachine = setup({
  types: {
    context: {} as CryptoCanceledContext,
    events: {} as CryptoCanceledEvent,
    input: {} as CryptoCanceledInput,
    tags: {} as 'busy',
  },
  actors: {
    /** PATCH coinbase-charges/{id} with {}: reads the charge from the provider and applies it. */
    syncCharge: fromPromise<CoinbaseChargeJson, { id: string }>(async () => {
      throw new Error('syncCharge not provided');
    }),
    /** GET coinbase-charges/{id}: the charge as we know it, without asking the provider. */
    loadCharge: fromPromise<CoinbaseChargeJson, { id: string }>(async () => {
      throw new Error('loadCharge not provided');
    }),
  },
  guards: {
    /** Trying again may help: not a missing charge (404) or a malformed id (400). */
    retryable: ({ context }) => !notFound(context.error),
  },
}).createMachine({
  id: 'cryptoCanceled',
  context: ({ input }) => ({ ...input, charge: null, error: null }),
  initial: 'syncing',
  states: {
    syncing: {
      tags: ['busy'],
      invoke: {
        id: 'syncCharge',
        src: 'syncCharge',
        input: ({ context }) => ({ id: context.chargeId }),
        onDone: { target: 'shown', actions: assign({ charge: ({ event }) => event.output, error: null }) },
        // The sync only hurries the outcome along; the charge shows as we know it either way.
        onError: { target: 'loading' },
      },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadCharge',
        src: 'loadCharge',
        input: ({ context }) => ({ id: context.chargeId }),
        onDone: { target: 'shown', actions: assign({ charge: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    shown: {},
    failed: {
      // Neither the sync nor the read went through: try both again (the cancel is not applied yet).
      on: { 'charge.retry': { guard: 'retryable', target: 'syncing' } },
    },
  },
});

export interface CryptoCanceledView {
  panel: 'loading' | 'charge' | 'error';
  busy: boolean;
  title: string;
  /** What happened to the charge. */
  reason: string;
  /** "Night Market", or "FUSD top-up". */
  itemTitle: string | null;
  /** The item page (/nft/{id}), when the charge paid for an order. */
  itemId: string | null;
  /** "$25". */
  amount: string | null;
  /** What the buyer paid of it ("$10"), when anything. */
  paid: string | null;
  timeline: TimelineEntry[];
  canRetry: boolean;
  retry: () => void;
}

/** Statuses of an order that went through (paid, on its way or minted). */
const paidStatuses: readonly OrderStatus[] = ['authorized', 'captured', 'minting', 'minted'];

function outcome(charge: CoinbaseChargeJson): { title: string; reason: string } {
  const { order } = charge;
  const topup = charge.type === 'topup';
  if (
    charge.status === 'CANCELED' ||
    charge.status === 'EXPIRED' ||
    (order !== null && orderFailed(order.status))
  )
    return {
      title: 'Purchase canceled',
      reason: `Your crypto ${topup ? 'top-up' : 'purchase'} was canceled. ${
        charge.paid > 0 ? 'What you paid is refunded as FUSD to your wallet.' : 'You were not charged.'
      }`,
    };
  if (charge.success || (order !== null && paidStatuses.includes(order.status)))
    return {
      title: 'Payment received',
      reason: topup
        ? 'This top-up was paid after all. The FUSD is on its way to your wallet.'
        : 'This purchase was paid after all. The collectible is on its way to your wallet.',
    };
  return {
    title: 'Payment not completed',
    reason: topup
      ? 'Your crypto payment is still open. You can still pay it, or let it expire.'
      : 'Your crypto payment is still open. You can pay it from the item page, or let it expire.',
  };
}

export function connectCryptoCanceled(
  snapshot: SnapshotFrom<typeof cryptoCanceledMachine>,
  send: (event: CryptoCanceledEvent) => void,
): CryptoCanceledView {
  const { charge, error } = snapshot.context;
  const base = {
    busy: snapshot.hasTag('busy'),
    canRetry: snapshot.can({ type: 'charge.retry' }),
    retry: () => send({ type: 'charge.retry' }),
  };
  const empty = { itemTitle: null, itemId: null, amount: null, paid: null, timeline: [] };
  if (snapshot.matches('failed')) {
    return {
      ...base,
      ...empty,
      panel: 'error',
      title: notFound(error) ? 'Charge not found' : 'Purchase canceled',
      reason: notFound(error)
        ? "We couldn't find this charge. It may have been made with another account: sign in with that account to see it."
        : `We could not load this charge. ${errorMessage(error)}`,
    };
  }
  if (!charge) {
    return {
      ...base,
      ...empty,
      panel: 'loading',
      title: 'Purchase canceled',
      reason: snapshot.matches('loading') ? 'Loading your purchase…' : 'Checking your payment…',
    };
  }
  const { order } = charge;
  return {
    ...base,
    panel: 'charge',
    ...outcome(charge),
    itemTitle: order ? order.item.title : charge.type === 'topup' ? 'FUSD top-up' : null,
    itemId: order ? order.item.id : null,
    amount: formatUsd(order ? order.amount : charge.amount),
    paid: charge.paid > 0 ? formatUsd(charge.paid) : null,
    timeline: orderTimeline(order?.events ?? []),
  };
}
