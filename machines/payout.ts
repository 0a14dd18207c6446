import { assign, fromPromise, setup } from 'xstate';
import { type ApiErrorBody, toErrorBody } from '#domain/errors';
import { parseDollars } from '#domain/money';
import { centsToDecimal, PAYOUT_MINIMUM, type PayoutRequestJson, type PayoutsPage } from '#domain/sales';
import { payoutFormInput } from '#domain/schemas/payouts';
import { validate } from '#domain/validation';

/**
 * The payouts page (SPEC §2 "Payouts page", §4 Payout state, §5 payout rule, §8 "Payout failure"):
 * the creator's payout requests with the available funds. "Request payout" opens a form prefilled
 * with the available funds; the amount (in dollars) must be at least $10 and at most the funds, by the
 * server's own schema. The owner may cancel a request still in state created, after confirming.
 * After a request or a cancellation the list is loaded again; a refused one shows the server's
 * message (else errors.default) and then reloads, since the refusal usually means the list moved on.
 */
export interface PayoutContext {
  requests: PayoutRequestJson[];
  total: number;
  /** Cents that may be requested now. */
  available: number;
  minimum: number;
  /** The amount field of the request form, in dollars as typed. */
  amount: string;
  /** The request being cancelled. */
  cancelId: string | null;
  /** What failed: loading the list, the form's amount, or the request/cancellation the server refused. */
  error: ApiErrorBody | null;
  /** Which action the failed state reports. */
  failure: 'request' | 'cancel' | null;
}
export type PayoutEvent =
  | { type: 'payout.request' }
  | { type: 'payout.submit'; amount: string }
  | { type: 'payout.close' }
  | { type: 'payout.cancel'; id: string }
  | { type: 'payout.cancel.confirm' }
  | { type: 'payout.dismiss' }
  | { type: 'payout.retry' };

/** The amount typed in dollars as the body of POST payout-requests, or the field's error. */
export function payoutAmount(amount: string, available: number) {
  const cents = parseDollars(amount);
  return validate(payoutFormInput(available), { amount: cents ?? Number.NaN });
}

/** Whether a request is open (created or pending): only one may be (SPEC §4). */
export const hasOpenRequest = (requests: readonly PayoutRequestJson[]) =>
  requests.some((r) => r.state === 'created' || r.state === 'pending');

export const payoutMachine = setup({
  types: {
    context: {} as PayoutContext,
    events: {} as PayoutEvent,
    tags: {} as 'busy',
  },
  actors: {
    /** GET payout-requests. */
    loadPayouts: fromPromise<PayoutsPage>(async () => {
      throw new Error('loadPayouts not provided');
    }),
    /** POST payout-requests. */
    createPayout: fromPromise<PayoutRequestJson, { amount: number }>(async () => {
      throw new Error('createPayout not provided');
    }),
    /** PATCH payout-requests/{id} { state: cancelled }. */
    cancelPayout: fromPromise<PayoutRequestJson, { id: string }>(async () => {
      throw new Error('cancelPayout not provided');
    }),
  },
  guards: {
    /** At least the minimum is available and no request is open. */
    canRequest: ({ context }) => context.available >= context.minimum && !hasOpenRequest(context.requests),
    amountWithinFunds: ({ context, event }) =>
      event.type === 'payout.submit' && payoutAmount(event.amount, context.available).ok,
    cancellable: ({ context, event }) =>
      event.type === 'payout.cancel' &&
      context.requests.some((r) => r.id === event.id && r.state === 'created'),
  },
  actions: {
    /** Tells the page a request was sent (toast). */
    announceRequested: () => {},
    /** Tells the page a request was cancelled (toast). */
    announceCancelled: () => {},
  },
}).createMachine({
  id: 'payout',
  context: {
    requests: [],
    total: 0,
    available: 0,
    minimum: PAYOUT_MINIMUM,
    amount: '',
    cancelId: null,
    error: null,
    failure: null,
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadPayouts',
        src: 'loadPayouts',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            requests: event.output.results,
            total: event.output.total,
            available: event.output.available,
            minimum: event.output.minimum,
          })),
        },
        onError: {
          target: 'loadFailed',
          actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
        },
      },
    },
    loadFailed: {
      on: { 'payout.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    ready: {
      on: {
        'payout.request': {
          guard: 'canRequest',
          target: 'requesting',
          actions: assign({ amount: ({ context }) => centsToDecimal(context.available), error: null }),
        },
        'payout.cancel': {
          guard: 'cancellable',
          target: 'confirmingCancel',
          actions: assign({ cancelId: ({ event }) => event.id, error: null }),
        },
      },
    },
    requesting: {
      on: {
        'payout.submit': [
          {
            guard: 'amountWithinFunds',
            target: 'submitting',
            actions: assign({ amount: ({ event }) => event.amount, error: null }),
          },
          {
            actions: assign(({ context, event }) => {
              const result = payoutAmount(event.amount, context.available);
              return {
                amount: event.amount,
                error: result.ok ? null : (Object.values(result.errors)[0] ?? null),
              };
            }),
          },
        ],
        'payout.close': { target: 'ready', actions: assign({ error: null }) },
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'createPayout',
        src: 'createPayout',
        input: ({ context }) => ({ amount: parseDollars(context.amount)! }),
        onDone: { target: 'loading', actions: 'announceRequested' },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => toErrorBody(event.error), failure: 'request' }),
        },
      },
    },
    confirmingCancel: {
      on: {
        'payout.cancel.confirm': 'cancelling',
        'payout.close': { target: 'ready', actions: assign({ cancelId: null }) },
      },
    },
    cancelling: {
      tags: ['busy'],
      invoke: {
        id: 'cancelPayout',
        src: 'cancelPayout',
        input: ({ context }) => ({ id: context.cancelId! }),
        onDone: { target: 'loading', actions: [assign({ cancelId: null }), 'announceCancelled'] },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => toErrorBody(event.error), failure: 'cancel' }),
        },
      },
    },
    /** The server refused (or could not be reached): its message, then the list again. */
    failed: {
      on: {
        'payout.dismiss': {
          target: 'loading',
          actions: assign({ error: null, failure: null, cancelId: null }),
        },
      },
    },
  },
});
