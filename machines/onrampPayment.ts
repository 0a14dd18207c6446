import { type ActorRefFrom, assertEvent, assign, fromCallback, fromPromise, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import type {
  OnrampChargeRequest,
  OnrampPaymentEvent,
  OnrampReport,
  WidgetPaymentStatus,
} from '#domain/ports/checkout';
import type { CheckoutItemKind } from '#domain/schemas/checkout';
import type { WertChargeJson } from '#domain/schemas/wert';
import { type RailOutcome, railBack, railPaid } from './railOutcome';

export type {
  OnrampChargeRequest,
  OnrampPaymentEvent,
  OnrampReport,
  WidgetPaymentStatus,
} from '#domain/ports/checkout';

/**
 * Paying for a new edition by card through the card-to-crypto on-ramp (Wert's widget; the on-ramp
 * rail of the checkout).
 *
 * First the buyer's open on-ramp charge is looked for (`findOpenCharge`: one still payable, for this
 * item or another: one open on-ramp charge per buyer blocks any other until it ends). Found, the panel
 * offers to resume it (the widget opens again with it) or cancel it (`cancelCharge`: its unit is
 * released and the panel goes on to a new purchase; refused with wert_cancel_fail when a payment
 * started meanwhile: the charge is then followed). A create refused with CHARGE_PENDING (a charge
 * opened elsewhere meanwhile) looks again.
 *
 * The panel shows the item and its price; Pay needs the purchase agreement and terms acknowledged.
 * Pay opens an on-ramp charge (`createCharge`, POST wert-charges at the price seen: one unit
 * reserved, the widget's options signed by the server) and opens the provider's widget with it
 * (`widget`, a callback actor that reports the widget's events): `onramp.widget.status` with the
 * widget's payment statuses, and `onramp.widget.close` when the buyer closes it.
 *
 * - pending: the buyer paid in the widget; the server is told (`reportStarted`, PATCH status
 *   paymentStarted, or transferStarted once the widget names the transaction: best effort, the
 *   provider's webhooks say the same) and cancelling is no longer possible;
 * - success: paid; the flow ends with the charge (output paid) and the purchase-complete page waits
 *   for the edition;
 * - failed or failover: the payment did not reach us; the widget is closed and the panel says why;
 * - canceled, or the widget closed before any payment: the charge is canceled (`cancelCharge`, PATCH
 *   status canceled) and its unit released; when the server refuses (wert_cancel_fail: a payment
 *   started meanwhile) the flow follows the charge instead;
 * - the widget closed after a payment started: the charge is read (`getCharge`) at once and every
 *   `pollInterval` (2 s), at most `maxPolls` (50) reads: success ends the flow as paid; an end
 *   without payment returns to the panel with its reason.
 *
 * Each attempt has one idempotency key, kept after a network failure (the charge may exist) and
 * dropped after any other outcome.
 */
export interface OnrampPaymentInput {
  /** The buyer, whose open on-ramp charges are looked for. */
  userId: string;
  item: { kind: CheckoutItemKind; id: string; title: string };
  /** The price the buyer sees, in cents (sent as expectedPrice). */
  price: number;
  email: string;
}
/** The on-ramp rail ends paid (the charge's order, followed through the charge), or back. */
export type OnrampPaymentOutput = RailOutcome;

export interface OnrampPaymentContext extends OnrampPaymentInput {
  acknowledged: boolean;
  key: string | null;
  charge: WertChargeJson | null;
  /** A payment started in the widget (it can no longer be canceled). */
  paying: boolean;
  polls: number;
  error: ApiErrorBody | null;
  result: OnrampPaymentOutput | null;
}

const PAID_STATUSES = ['order_complete', 'MINTING', 'MINTED', 'MINT_SAVE_FAILED', 'NFT_SYNC_FAILED'];
/** The contract call failed and the provider failed over: nothing reached us. */
const FAILOVER_STATUSES = ['tx_smart_contract_failed', 'failover_complete', 'failover_cancelled'];
/** Ends without a payment that reached us. */
const UNPAID_ENDS = ['order_failed', 'order_canceled', ...FAILOVER_STATUSES, 'canceled', 'expired'];

const failure = (code: ErrorCode): ApiErrorBody => ({ code, message: errorMessage({ code }) });
const PAYMENT_FAILED = failure(ErrorCode.ONRAMP_FAILED);
const FAILOVER = failure(ErrorCode.ONRAMP_FAILOVER);
const error = ({ event }: { event: { error: unknown } }) => event.error;

export const onrampPaymentMachine = setup({
  types: {
    context: {} as OnrampPaymentContext,
    events: {} as OnrampPaymentEvent,
    input: {} as OnrampPaymentInput,
    output: {} as OnrampPaymentOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** GET wert-charges?userId&statuses=(open): the buyer's first charge still payable, or null. */
    findOpenCharge: fromPromise<WertChargeJson | null, { userId: string }>(async () => {
      throw new Error('findOpenCharge not provided');
    }),
    /** POST wert-charges. */
    createCharge: fromPromise<WertChargeJson, OnrampChargeRequest>(async () => {
      throw new Error('createCharge not provided');
    }),
    /** Opens the provider's widget for the charge; reports its events; closes it when stopped. */
    widget: fromCallback<OnrampPaymentEvent, { charge: WertChargeJson }>(() => {
      throw new Error('widget not provided');
    }),
    /** PATCH wert-charges/{id} { status: paymentStarted | transferStarted }. */
    reportStarted: fromPromise<WertChargeJson, OnrampReport>(async () => {
      throw new Error('reportStarted not provided');
    }),
    /** PATCH wert-charges/{id} { status: canceled }. */
    cancelCharge: fromPromise<WertChargeJson, { id: string }>(async () => {
      throw new Error('cancelCharge not provided');
    }),
    /** GET wert-charges/{id}. */
    getCharge: fromPromise<WertChargeJson, { id: string }>(async () => {
      throw new Error('getCharge not provided');
    }),
  },
  delays: { pollInterval: 2000 },
  guards: {
    acknowledged: ({ context }) => context.acknowledged,
    acknowledgementChanges: ({ context, event }) => {
      assertEvent(event, 'onramp.acknowledge');
      return event.value !== context.acknowledged;
    },
    networkFailure: (_, err: unknown) => toErrorBody(err).code === ErrorCode.NETWORK_FAILURE,
    /** Another on-ramp charge of the buyer is open (CHARGE_PENDING). */
    chargePending: (_, err: unknown) => toErrorBody(err).code === ErrorCode.CHARGE_PENDING,
    /** The server refused to cancel: a payment started (wert_cancel_fail). */
    cancelRefused: (_, err: unknown) => toErrorBody(err).code === ErrorCode.WERT_CANCEL_FAIL,
    /** A charge the buyer can still pay or cancel. */
    openCharge: (_, charge: WertChargeJson | null) => charge?.unresolved === true,
    statusIs: ({ event }, statuses: WidgetPaymentStatus[]) => {
      assertEvent(event, 'onramp.widget.status');
      return statuses.includes(event.status);
    },
    paying: ({ context }) => context.paying,
    paid: (_, charge: WertChargeJson) => charge.success || PAID_STATUSES.includes(charge.status),
    endedUnpaid: (_, charge: WertChargeJson) => UNPAID_ENDS.includes(charge.status),
    pollsLeft: ({ context }) => context.polls < 50,
  },
  actions: {
    acknowledge: assign({
      acknowledged: ({ event }) => {
        assertEvent(event, 'onramp.acknowledge');
        return event.value;
      },
    }),
    ensureKey: assign({ key: ({ context }) => context.key ?? crypto.randomUUID() }),
    dropAttempt: assign({ key: null, charge: null, paying: false }),
    keepCharge: assign({ charge: (_, charge: WertChargeJson) => charge }),
    /** The open charge found: what the panel offers to resume or cancel. */
    keepOpenCharge: assign({ charge: (_, charge: WertChargeJson) => charge, error: null }),
    /** Back into the widget with the open charge; a payment it started can no longer be canceled. */
    resumeCharge: assign({
      paying: ({ context }) => context.charge !== null && !context.charge.cancellable,
      polls: 0,
      error: null,
    }),
    markPaying: assign({ paying: true }),
    countPoll: assign({ polls: ({ context }) => context.polls + 1 }),
    resetPolls: assign({ polls: 0 }),
    showError: assign({ error: (_, err: unknown) => toErrorBody(err) }),
    showFailed: assign({ error: PAYMENT_FAILED }),
    showFailover: assign({ error: FAILOVER }),
    showEnded: assign({
      error: (_, charge: WertChargeJson) =>
        charge.order.failure ?? (FAILOVER_STATUSES.includes(charge.status) ? FAILOVER : PAYMENT_FAILED),
    }),
    clearError: assign({ error: null }),
    endPaid: assign({
      result: ({ context }, charge: WertChargeJson | null) => {
        const paid = (charge ?? context.charge)!;
        return railPaid(paid.order, 'wert', paid.id);
      },
    }),
    endBack: assign({ result: railBack }),
  },
}).createMachine({
  id: 'onrampPayment',
  context: ({ input }) => ({
    ...input,
    acknowledged: false,
    key: null,
    charge: null,
    paying: false,
    polls: 0,
    error: null,
    result: null,
  }),
  initial: 'finding',
  output: ({ context }) => context.result!,
  states: {
    /** Looking for the buyer's open on-ramp charge. */
    finding: {
      tags: ['busy'],
      invoke: {
        id: 'findOpenCharge',
        src: 'findOpenCharge',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: [
          {
            guard: { type: 'openCharge', params: ({ event }) => event.output },
            target: 'openCharge',
            actions: { type: 'keepOpenCharge', params: ({ event }) => event.output! },
          },
          { target: 'review' },
        ],
        // Not known now: a purchase that it blocks is refused with CHARGE_PENDING, and looks again.
        onError: 'review',
      },
    },
    /** The buyer's open charge: resume it in the widget, cancel it, or leave. */
    openCharge: {
      on: {
        'onramp.resume': { target: 'widget', actions: 'resumeCharge' },
        'onramp.cancel': { target: 'cancellingOpen', actions: 'clearError' },
        'onramp.back': { target: 'back', actions: 'endBack' },
      },
    },
    cancellingOpen: {
      tags: ['busy'],
      invoke: {
        id: 'cancelCharge',
        src: 'cancelCharge',
        input: ({ context }) => ({ id: context.charge!.id }),
        onDone: { target: 'review', actions: 'dropAttempt' },
        onError: [
          // A payment started meanwhile: the charge is followed until it ends.
          {
            guard: { type: 'cancelRefused', params: error },
            target: 'following',
            actions: [{ type: 'showError', params: error }, 'resetPolls'],
          },
          { target: 'openCharge', actions: { type: 'showError', params: error } },
        ],
      },
    },
    review: {
      on: {
        'onramp.acknowledge': { guard: 'acknowledgementChanges', actions: 'acknowledge' },
        'onramp.submit': { guard: 'acknowledged', target: 'creating', actions: 'ensureKey' },
        'onramp.back': { target: 'back', actions: 'endBack' },
      },
    },
    creating: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'createCharge',
        src: 'createCharge',
        input: ({ context }) => ({ item: context.item, price: context.price, idempotencyKey: context.key! }),
        onDone: { target: 'widget', actions: { type: 'keepCharge', params: ({ event }) => event.output } },
        onError: [
          {
            guard: { type: 'networkFailure', params: error },
            target: 'review',
            actions: { type: 'showError', params: error },
          },
          // Another charge of the buyer opened meanwhile: it is looked for, and offered.
          {
            guard: { type: 'chargePending', params: error },
            target: 'finding',
            actions: [{ type: 'showError', params: error }, 'dropAttempt'],
          },
          { target: 'review', actions: [{ type: 'showError', params: error }, 'dropAttempt'] },
        ],
      },
    },
    /** The provider's widget is open over the page. */
    widget: {
      tags: ['busy'],
      invoke: { id: 'widget', src: 'widget', input: ({ context }) => ({ charge: context.charge! }) },
      initial: 'open',
      states: {
        open: {},
        reporting: {
          invoke: {
            id: 'reportStarted',
            src: 'reportStarted',
            input: ({ context, event }) => ({
              id: context.charge!.id,
              status:
                event.type === 'onramp.widget.status' && event.txId
                  ? ('transferStarted' as const)
                  : ('paymentStarted' as const),
            }),
            onDone: { target: 'open', actions: { type: 'keepCharge', params: ({ event }) => event.output } },
            // Best effort: the provider's webhook tells the server the same.
            onError: 'open',
          },
        },
      },
      on: {
        'onramp.widget.status': [
          {
            guard: { type: 'statusIs', params: ['pending'] },
            target: '.reporting',
            actions: 'markPaying',
          },
          {
            guard: { type: 'statusIs', params: ['success'] },
            target: 'paid',
            actions: { type: 'endPaid', params: null },
          },
          {
            guard: { type: 'statusIs', params: ['failed'] },
            target: 'review',
            actions: ['showFailed', 'dropAttempt'],
          },
          {
            guard: { type: 'statusIs', params: ['failover'] },
            target: 'review',
            actions: ['showFailover', 'dropAttempt'],
          },
          { guard: { type: 'statusIs', params: ['canceled'] }, target: 'cancelling' },
        ],
        'onramp.widget.close': [
          { guard: 'paying', target: 'following', actions: 'resetPolls' },
          { target: 'cancelling' },
        ],
      },
    },
    cancelling: {
      tags: ['busy'],
      invoke: {
        id: 'cancelCharge',
        src: 'cancelCharge',
        input: ({ context }) => ({ id: context.charge!.id }),
        onDone: { target: 'review', actions: 'dropAttempt' },
        // wert_cancel_fail: a payment started meanwhile; the charge is followed instead.
        onError: { target: 'following', actions: [{ type: 'showError', params: error }, 'resetPolls'] },
      },
    },
    /** After the widget closed with a payment under way: the charge is read until it ends. */
    following: {
      tags: ['busy'],
      initial: 'reading',
      states: {
        reading: {
          entry: 'countPoll',
          invoke: {
            id: 'getCharge',
            src: 'getCharge',
            input: ({ context }) => ({ id: context.charge!.id }),
            onDone: [
              {
                guard: { type: 'paid', params: ({ event }) => event.output },
                target: '#onrampPayment.paid',
                actions: { type: 'endPaid', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'endedUnpaid', params: ({ event }) => event.output },
                target: '#onrampPayment.review',
                actions: [{ type: 'showEnded', params: ({ event }) => event.output }, 'dropAttempt'],
              },
              { guard: 'pollsLeft', target: 'waiting' },
              { target: '#onrampPayment.stillProcessing' },
            ],
            onError: [
              { guard: 'pollsLeft', target: 'waiting' },
              { target: '#onrampPayment.stillProcessing' },
            ],
          },
        },
        waiting: { after: { pollInterval: 'reading' } },
      },
    },
    /** The payment is still being confirmed after the last read: the buyer may look again or leave. */
    stillProcessing: {
      on: {
        'onramp.submit': { target: 'following', actions: ['resetPolls', 'clearError'] },
        'onramp.back': { target: 'back', actions: 'endBack' },
      },
    },
    paid: { type: 'final' },
    back: { type: 'final' },
  },
});

export type OnrampPaymentActor = ActorRefFrom<typeof onrampPaymentMachine>;
