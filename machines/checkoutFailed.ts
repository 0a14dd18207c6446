import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { toDate } from '#domain/dates';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd } from '#domain/money';
import type { ChargeSync } from '#domain/ports/checkout';
import { type CardChargeJson, type OrderJson, type OrderStatus, orderFailed } from '#domain/schemas/checkout';

export type { ChargeSync } from '#domain/ports/checkout';

/**
 * The page a card payment that failed ends on (/checkoutcomfailed/{orderId}): the provider sends the
 * buyer here when 3-D Secure fails, and the checkout after a decline. Back from the provider (the
 * link has `cko-session-id`) and while the order's charge still waits for 3-D Secure, the charge is
 * synced with the provider once, so the page tells the outcome the provider knows; then the order
 * shows with the reason and its timeline. An order that is not the buyer's, or unknown, is not found.
 */
export interface CheckoutFailedInput {
  orderId: string;
  /** The 3-D Secure session the provider sent the buyer back with (sid_…). */
  ckoSessionId: string | null;
}

export interface CheckoutFailedContext extends CheckoutFailedInput {
  chargeId: string | null;
  order: OrderJson | null;
  error: ApiErrorBody | null;
}
export type CheckoutFailedEvent = { type: 'order.retry' };

export const checkoutFailedMachine = setup({
  types: {
    context: {} as CheckoutFailedContext,
    events: {} as CheckoutFailedEvent,
    input: {} as CheckoutFailedInput,
    tags: {} as 'busy',
  },
  actors: {
    /** The order's charge among the buyer's charges waiting for 3-D Secure, or null. */
    findCharge: fromPromise<CardChargeJson | null, { orderId: string }>(async () => {
      throw new Error('findCharge not provided');
    }),
    /** PATCH checkout-com-charges/{id}/actions/sync. */
    syncCharge: fromPromise<CardChargeJson, ChargeSync>(async () => {
      throw new Error('syncCharge not provided');
    }),
    /** GET orders/{id}. */
    loadOrder: fromPromise<OrderJson, { id: string }>(async () => {
      throw new Error('loadOrder not provided');
    }),
  },
  guards: {
    backFromProvider: ({ context }) => context.ckoSessionId !== null,
    chargeFound: (_, charge: CardChargeJson | null) => charge !== null,
    /** Loading again may help: not a missing order (404) or a malformed id (400). */
    retryable: ({ context }) => !notFound(context.error),
  },
}).createMachine({
  id: 'checkoutFailed',
  context: ({ input }) => ({ ...input, chargeId: null, order: null, error: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'backFromProvider', target: 'finding' }, { target: 'loading' }],
    },
    finding: {
      tags: ['busy'],
      invoke: {
        id: 'findCharge',
        src: 'findCharge',
        input: ({ context }) => ({ orderId: context.orderId }),
        onDone: [
          {
            guard: { type: 'chargeFound', params: ({ event }) => event.output },
            target: 'syncing',
            actions: assign({ chargeId: ({ event }) => event.output!.id }),
          },
          // Settled already (by the provider's webhook): nothing to sync.
          { target: 'loading' },
        ],
        // The sync only hurries the outcome along; the order shows either way.
        onError: { target: 'loading' },
      },
    },
    syncing: {
      tags: ['busy'],
      invoke: {
        id: 'syncCharge',
        src: 'syncCharge',
        input: ({ context }) => ({ id: context.chargeId!, ckoSessionId: context.ckoSessionId }),
        onDone: { target: 'loading' },
        onError: { target: 'loading' },
      },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadOrder',
        src: 'loadOrder',
        input: ({ context }) => ({ id: context.orderId }),
        onDone: { target: 'shown', actions: assign({ order: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    shown: {},
    failed: {
      on: { 'order.retry': { guard: 'retryable', target: 'loading' } },
    },
  },
});

/** A missing (404) or malformed (400) id: loading again cannot help. */
export function notFound(error: ApiErrorBody | null) {
  return error?.code === 'not_found' || error?.code === 'INVALID_VALUE';
}

/** How the timeline names an order's events (its statuses). */
export const orderEventLabels: Record<string, string> = {
  created: 'Order placed',
  authorized: 'Payment authorized',
  captured: 'Payment captured',
  minting: 'Minting started',
  minted: 'Minted',
  declined: 'Payment declined',
  canceled: 'Order canceled',
  expired: 'Order expired',
  voided: 'Payment voided',
  refunded: 'Payment refunded',
  review: 'Held for review',
  // The crypto and on-ramp payments' own events.
  underpaid: 'Paid in part',
  payment_seen: 'Payment seen, waiting for the network to confirm it',
  paid_late: 'Paid after the order ended',
  fusd_sent: 'Refunded as FUSD',
  payment_started: 'Card payment started',
  failover_complete: 'Sent to your wallet instead',
  failover_cancelled: 'Given back by the on-ramp',
};
const eventLabel = (type: string) =>
  orderEventLabels[type] ?? `${type.charAt(0).toUpperCase()}${type.slice(1).replace(/[_-]+/g, ' ')}`;

const eventTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** An order's events as the timeline shows them, oldest first. */
export const orderTimeline = (events: OrderJson['events']): TimelineEntry[] =>
  events.map((e) => {
    const at = toDate(e.at);
    return {
      label: eventLabel(e.type),
      detail: e.detail,
      time: eventTime.format(at),
      dateTime: at.toISOString(),
    };
  });

export interface TimelineEntry {
  label: string;
  detail: string | null;
  /** "Nov 22, 2026, 10:00 AM" in the browser's time zone. */
  time: string;
  /** ISO text for <time dateTime>. */
  dateTime: string;
}
export interface CheckoutFailedView {
  panel: 'loading' | 'order' | 'error';
  busy: boolean;
  title: string;
  /** Why the purchase failed, or what happened to the order. */
  reason: string;
  /** "Night Market". */
  itemTitle: string | null;
  /** The item page (/nft/{id}), once the order is known. */
  itemId: string | null;
  /** "$25". */
  amount: string | null;
  timeline: TimelineEntry[];
  /** Insufficient funds: the buyer is offered to add funds with crypto and pay from the balance. */
  offerTopUp: boolean;
  canRetry: boolean;
  retry: () => void;
}

/** Statuses of an order that went through (paid, on its way or minted). */
const paidStatuses: readonly OrderStatus[] = ['authorized', 'captured', 'minting', 'minted'];

function outcome(order: OrderJson): { title: string; reason: string } {
  if (orderFailed(order.status))
    return { title: 'Purchase Failed', reason: order.failure?.message || 'Your card was not charged.' };
  if (paidStatuses.includes(order.status))
    return {
      title: 'Payment received',
      reason: 'This order was paid after all. The collectible is on its way to your wallet.',
    };
  return {
    title: 'Payment not completed',
    reason:
      'Your card has not been charged. The order is waiting for the payment, and ends unpaid after 15 minutes.',
  };
}

export function connectCheckoutFailed(
  snapshot: SnapshotFrom<typeof checkoutFailedMachine>,
  send: (event: CheckoutFailedEvent) => void,
): CheckoutFailedView {
  const { order, error } = snapshot.context;
  const base = {
    busy: snapshot.hasTag('busy'),
    canRetry: snapshot.can({ type: 'order.retry' }),
    retry: () => send({ type: 'order.retry' }),
  };
  if (snapshot.matches('failed')) {
    return {
      ...base,
      panel: 'error',
      title: notFound(error) ? 'Order not found' : 'Purchase Failed',
      reason: notFound(error)
        ? "We couldn't find this order. It may have been placed with another account: sign in with that account to see it."
        : `We could not load this order. ${errorMessage(error)}`,
      itemTitle: null,
      itemId: null,
      amount: null,
      timeline: [],
      offerTopUp: false,
    };
  }
  if (!order) {
    return {
      ...base,
      panel: 'loading',
      title: 'Purchase Failed',
      reason: snapshot.matches('loading') ? 'Loading your order…' : 'Checking your payment…',
      itemTitle: null,
      itemId: null,
      amount: null,
      timeline: [],
      offerTopUp: false,
    };
  }
  return {
    ...base,
    panel: 'order',
    ...outcome(order),
    itemTitle: order.item.title,
    itemId: order.item.id,
    amount: formatUsd(order.amount),
    offerTopUp: order.failure?.code === ErrorCode.CARD_INSUFFICIENT_FUNDS,
    timeline: orderTimeline(order.events),
  };
}
