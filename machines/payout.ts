import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { toDate } from '#domain/dates';
import type { PayoutState } from '#domain/enums';
import { type ApiErrorBody, toErrorBody } from '#domain/errors';
import { formatUsd, parseDollars } from '#domain/money';
import {
  centsToDecimal,
  PAYOUT_MINIMUM,
  type PayoutRequestJson,
  type PayoutsPage,
  payoutFailureText,
  payoutStateLabels,
} from '#domain/sales';
import { payoutFormInput } from '#domain/schemas/payouts';
import { validate } from '#domain/validation';
import {
  type ButtonProps,
  buttonProps,
  type DialogProps,
  dialogProps,
  type FieldsFormProps,
  fieldsFormProps,
} from './props';

/**
 * The payouts page: the creator's payout requests with the available funds. "Request payout" opens a
 * form prefilled with the available funds; the amount (in dollars) must be at least $10 and at most
 * the funds, by the server's own schema, and only one request may be open (created or pending) at a
 * time. The owner may cancel a request still in state created, after confirming.
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

/** Whether a request is open (created or pending): only one may be open at a time. */
export const hasOpenRequest = (requests: readonly PayoutRequestJson[]) =>
  requests.some((r) => r.state === 'created' || r.state === 'pending');

export const payoutMachine = setup({
  types: {
    context: {} as PayoutContext,
    events: {} as PayoutEvent,
    /** busy while anything runs; each running state also says what runs. */
    tags: {} as 'busy' | 'loading' | 'submitting' | 'cancelling',
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
      tags: ['busy', 'loading'],
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
      tags: ['busy', 'submitting'],
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
      tags: ['busy', 'cancelling'],
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

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
export const formatRequestDate = (d: Date | string) => dateFormat.format(toDate(d));

export interface PayoutRow {
  id: string;
  requested: string;
  amount: string;
  state: PayoutState;
  stateLabel: string;
  /** The row's Cancel button (requests still in state created), with its accessible name. */
  cancel: { label: string; enabled: boolean } | null;
}
/** What the payouts page shows. */
export interface PayoutView {
  /** The first load, its failure, or the list (kept while it loads again). */
  panel: 'loading' | 'loadFailed' | 'list';
  busy: boolean;
  loadError: string | null;
  available: string;
  /** Why "Request payout" is or is not possible. */
  note: string;
  rows: PayoutRow[];
  /** "The newest 20 of 31 requests." when the list is cut. */
  more: string | null;
  /** The request form, while it is open. */
  form: { description: string; amount: string; error: string | null; submitting: boolean } | null;
  /** The cancel confirmation, while it asks and while the cancellation runs. */
  confirmCancel: { message: string; busy: boolean } | null;
  /** The refusal of a request or a cancellation, until dismissed. */
  failure: { title: string; message: string } | null;
  /** Try again after the list failed to load. */
  getRetryButtonProps: () => ButtonProps;
  /** "Request payout": enabled with at least the minimum available and no request open. */
  getRequestButtonProps: () => ButtonProps;
  /** A row's Cancel (its `cancel`), named by the request it cancels. */
  getCancelRequestButtonProps: (row: PayoutRow) => ButtonProps & { 'aria-label': string };
  /** The request dialog: open with the form; Escape and its close button close it unless it is sent. */
  getFormDialogProps: () => DialogProps & { open: boolean };
  /** The request form: its submit sends the typed amount. */
  getFormProps: () => FieldsFormProps;
  /** "Send request" (busy while it is sent). */
  getSubmitButtonProps: () => ButtonProps;
  /** The form's Cancel. */
  getFormCloseButtonProps: () => ButtonProps;
  /** The cancel confirmation: "Cancel request" confirms, "Keep request" closes it. */
  getConfirmCancelProps: () => {
    open: boolean;
    loading: boolean;
    onConfirm: () => void;
    onCancel: () => void;
  };
  /** The refusal's alert: Done dismisses it. */
  getFailureProps: () => { open: boolean; onClose: () => void };
}

export function connectPayout(
  snapshot: SnapshotFrom<typeof payoutMachine>,
  send: (event: PayoutEvent) => void,
): PayoutView {
  const { requests, total, available, minimum, amount, cancelId, error, failure } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  const open = hasOpenRequest(requests);
  const loadFailed = snapshot.can({ type: 'payout.retry' });
  const firstLoad = snapshot.hasTag('loading') && requests.length === 0 && total === 0;
  // The form is open while it can be sent, and while it is sent.
  const formOpen = snapshot.can({ type: 'payout.submit', amount });
  const submitting = snapshot.hasTag('submitting');
  const asking = snapshot.can({ type: 'payout.cancel.confirm' });
  const cancelling = snapshot.hasTag('cancelling');
  const failed = snapshot.can({ type: 'payout.dismiss' });
  const target = requests.find((r) => r.id === cancelId);
  const close = () => send({ type: 'payout.close' });
  return {
    panel: loadFailed ? 'loadFailed' : firstLoad ? 'loading' : 'list',
    busy,
    loadError: loadFailed ? payoutFailureText(error) : null,
    available: formatUsd(available),
    note: open
      ? 'You have a payout request in progress. You can request another once it has been processed.'
      : available < minimum
        ? `You can request a payout once you have at least ${formatUsd(minimum)} available.`
        : `Payouts are paid in USD. The minimum is ${formatUsd(minimum)}.`,
    rows: requests.map((r) => ({
      id: r.id,
      requested: formatRequestDate(r.createdAt),
      amount: formatUsd(r.amount),
      state: r.state,
      stateLabel: payoutStateLabels[r.state],
      cancel:
        r.state === 'created'
          ? {
              label: `Cancel the payout request of ${formatUsd(r.amount)}`,
              enabled: snapshot.can({ type: 'payout.cancel', id: r.id }),
            }
          : null,
    })),
    more: total > requests.length ? `The newest ${requests.length} of ${total} requests.` : null,
    form:
      formOpen || submitting
        ? {
            description: `Available: ${formatUsd(available)}. The minimum payout is ${formatUsd(minimum)}.`,
            amount,
            error: error ? payoutFailureText(error) : null,
            submitting,
          }
        : null,
    confirmCancel:
      asking || cancelling
        ? {
            message: target
              ? `The request of ${formatUsd(target.amount)} will be cancelled and the amount becomes available again.`
              : 'The request will be cancelled.',
            busy: cancelling,
          }
        : null,
    failure: failed
      ? {
          title: failure === 'cancel' ? 'The request was not cancelled' : 'The payout was not requested',
          message: payoutFailureText(error),
        }
      : null,
    getRetryButtonProps: () =>
      buttonProps({ onClick: () => send({ type: 'payout.retry' }), disabled: !loadFailed }),
    getRequestButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'payout.request' }),
        disabled: !snapshot.can({ type: 'payout.request' }),
      }),
    getCancelRequestButtonProps: (row) => ({
      ...buttonProps({
        onClick: () => send({ type: 'payout.cancel', id: row.id }),
        disabled: !row.cancel?.enabled,
      }),
      'aria-label': row.cancel?.label ?? '',
    }),
    getFormDialogProps: () => ({
      open: formOpen || submitting,
      ...dialogProps(!submitting, close),
    }),
    getFormProps: () =>
      fieldsFormProps(['amount'], ({ amount }) => send({ type: 'payout.submit', amount: amount! })),
    getSubmitButtonProps: () => buttonProps({ type: 'submit', disabled: !formOpen, busy: submitting }),
    getFormCloseButtonProps: () => buttonProps({ onClick: close, disabled: submitting }),
    getConfirmCancelProps: () => ({
      open: asking || cancelling,
      loading: cancelling,
      onConfirm: () => send({ type: 'payout.cancel.confirm' }),
      onCancel: close,
    }),
    getFailureProps: () => ({ open: failed, onClose: () => send({ type: 'payout.dismiss' }) }),
  };
}
