import { type ActorRefFrom, assertEvent, assign, fromPromise, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import type { BalanceOrderRequest, PayOrderRequest, TopupChargeRequest } from '#domain/ports/checkout';
import type { CheckoutItemKind, OrderStatus } from '#domain/schemas/checkout';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import { topupAmount } from '#domain/schemas/crypto';
import type { FusdOrderJson } from '#domain/schemas/fusd';
import { type RailOutcome, railBack, railPaid, railRedirect } from './railOutcome';
import { followTopupState, topupFollowDelays, topupFollowGuards } from './topupFollow';

export type { BalanceOrderRequest, PayOrderRequest, TopupChargeRequest } from '#domain/ports/checkout';

/**
 * Paying for a new edition with the FUSD (stablecoin) balance (the balance rail of the checkout).
 *
 * The wallet's balance is read first (`readBalance`). Below the price, the buyer sees the balance,
 * the price and "Insufficient funds", and is offered a crypto top-up of the shortfall (at least
 * $1, at most $10,000; only when the crypto rail runs): it opens a hosted top-up charge that returns
 * to `returnTo` (the item page, which opens this rail again) and ends the flow with its page (output
 * redirect). The buyer can also check the balance again.
 *
 * Back from the top-up's page (`returnedTopup`, its charge id), the rail first follows that charge
 * (`getTopup`, GET coinbase-charges/{id}) at once and then every `topupPollInterval` (2 s), at most
 * 50 reads in all (a failed read counts and the next tick reads again), until its FUSD is sent
 * (SEND_FUSD_SUCCEEDED), was not sent (SEND_FUSD_FAILED) or it was not paid (EXPIRED, CANCELED);
 * then, or after the last read, it reads the balance. The buyer may go back meanwhile.
 *
 * With enough balance: the buyer acknowledges the purchase agreement and terms and presses Pay,
 * which reserves the order (`createOrder`, POST fusd-orders at the price seen), has the wallet pay
 * its exact FUSD amount for it (`payOrder`, a transaction signed in the wallet and awaited until
 * sealed) and reports the transaction (`reportPayment`); the server reads it from the chain and
 * mints. The flow ends with the order (output paid).
 *
 * No second payment: each attempt has one idempotency key, kept until it succeeds or is refused
 * for good, so Pay again after a wallet refusal or a network failure answers the same order; a
 * top-up attempt and a purchase attempt each have their own key (`topupKey`, `orderKey`), so a
 * retried top-up is never answered with the order, nor the order with a top-up; an
 * order found already paid (its payment seen by the server meanwhile) is not paid again. A report
 * that fails (not sealed yet, no answer) is sent again every `confirmInterval` (2 s), at most
 * `maxReports` (50) times in all, then the buyer can retry it; the transaction is never sent twice.
 */
export interface BalancePaymentInput {
  item: { kind: CheckoutItemKind; id: string; title: string };
  /** The price the buyer sees, in cents (sent as expectedPrice). */
  price: number;
  /** The buyer's wallet, which pays. */
  walletAddress: string;
  /** Whether a crypto top-up can be offered (the crypto rail runs). */
  canTopUp: boolean;
  /** Where a top-up's payment page sends the buyer back: the item page, this rail open again. */
  returnTo: string;
  /** The top-up charge the buyer came back from, followed until its FUSD arrives; or null. */
  returnedTopup?: string | null;
}
/** The balance rail ends paid (the order), on a top-up's page (redirect), or back. */
export type BalancePaymentOutput = RailOutcome;

export interface BalancePaymentContext extends BalancePaymentInput {
  /** Cents, once read. */
  balance: number | null;
  /** The returned top-up as last read, and the reads of it so far. */
  topup: CoinbaseChargeJson | null;
  topupReads: number;
  acknowledged: boolean;
  /** The open top-up attempt's idempotency key. */
  topupKey: string | null;
  /** The open purchase attempt's idempotency key (never a top-up's). */
  orderKey: string | null;
  order: FusdOrderJson | null;
  transactionId: string | null;
  reports: number;
  error: ApiErrorBody | null;
  result: BalancePaymentOutput | null;
}
export type BalancePaymentEvent =
  | { type: 'balance.acknowledge'; value: boolean }
  | { type: 'balance.submit' }
  | { type: 'balance.topup' }
  | { type: 'balance.retry' }
  | { type: 'balance.back' };

/** The order's statuses once it is paid. */
const PAID: OrderStatus[] = ['authorized', 'captured', 'minting', 'minted'];
const paid = (order: FusdOrderJson) => PAID.includes(order.order.status);

const error = ({ event }: { event: { error: unknown } }) => event.error;

export const balancePaymentMachine = setup({
  types: {
    context: {} as BalancePaymentContext,
    events: {} as BalancePaymentEvent,
    input: {} as BalancePaymentInput,
    output: {} as BalancePaymentOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** The wallet's FUSD balance, in cents. */
    readBalance: fromPromise<number, { address: string }>(async () => {
      throw new Error('readBalance not provided');
    }),
    /** POST fusd-orders. */
    createOrder: fromPromise<FusdOrderJson, BalanceOrderRequest>(async () => {
      throw new Error('createOrder not provided');
    }),
    /** transactions/pay_order.cdc signed in the wallet, awaited until sealed. */
    payOrder: fromPromise<{ transactionId: string }, PayOrderRequest>(async () => {
      throw new Error('payOrder not provided');
    }),
    /** PATCH fusd-orders/{id} { transactionId }. */
    reportPayment: fromPromise<FusdOrderJson, { orderId: string; transactionId: string }>(async () => {
      throw new Error('reportPayment not provided');
    }),
    /** POST coinbase-charges { type: topup }. */
    createTopup: fromPromise<CoinbaseChargeJson, TopupChargeRequest>(async () => {
      throw new Error('createTopup not provided');
    }),
    /** GET coinbase-charges/{id}: the top-up the buyer came back from. */
    getTopup: fromPromise<CoinbaseChargeJson, { id: string }>(async () => {
      throw new Error('getTopup not provided');
    }),
  },
  delays: {
    confirmInterval: 2000,
    ...topupFollowDelays,
  },
  guards: {
    returnedFromTopup: ({ context }) => !!context.returnedTopup,
    ...topupFollowGuards,
    covers: ({ context }, balance: number) => balance >= context.price,
    acknowledged: ({ context }) => context.acknowledged,
    acknowledgementChanges: ({ context, event }) => {
      assertEvent(event, 'balance.acknowledge');
      return event.value !== context.acknowledged;
    },
    canTopUp: ({ context }) => context.canTopUp,
    hasHostedPage: (_, charge: CoinbaseChargeJson) => !!charge.hostedUrl,
    /** The order was paid already (the server saw its payment): it is not paid again. */
    alreadyPaid: (_, order: FusdOrderJson) => paid(order),
    /** The order no longer waits for a payment (expired, canceled, …): a new attempt is needed. */
    ended: (_, order: FusdOrderJson) => order.order.status !== 'created',
    /** No answer came: the request may have been applied, so the same key is sent again. */
    networkFailure: (_, err: unknown) => toErrorBody(err).code === ErrorCode.NETWORK_FAILURE,
    reportsLeft: ({ context }) => context.reports < 50,
  },
  actions: {
    keepBalance: assign({ balance: (_, balance: number) => balance }),
    keepTopup: assign({ topup: (_, charge: CoinbaseChargeJson) => charge }),
    countTopupRead: assign({ topupReads: ({ context }) => context.topupReads + 1 }),
    acknowledge: assign({
      acknowledged: ({ event }) => {
        assertEvent(event, 'balance.acknowledge');
        return event.value;
      },
    }),
    /** A new top-up attempt, with its own idempotency key, unless one is still open. */
    ensureTopupKey: assign({ topupKey: ({ context }) => context.topupKey ?? crypto.randomUUID() }),
    dropTopupKey: assign({ topupKey: null }),
    /** A new purchase attempt, with its own idempotency key, unless one is still open. */
    ensureOrderKey: assign({ orderKey: ({ context }) => context.orderKey ?? crypto.randomUUID() }),
    dropOrderKey: assign({ orderKey: null }),
    keepOrder: assign({ order: (_, order: FusdOrderJson) => order }),
    keepTransaction: assign({ transactionId: (_, tx: { transactionId: string }) => tx.transactionId }),
    countReport: assign({ reports: ({ context }) => context.reports + 1 }),
    resetReports: assign({ reports: 0 }),
    showError: assign({ error: (_, err: unknown) => toErrorBody(err) }),
    showNoHostedPage: assign({
      error: (): ApiErrorBody => ({
        code: ErrorCode.CREATE_COINBASE_CHARGE,
        message: errorMessage({ code: ErrorCode.CREATE_COINBASE_CHARGE }),
      }),
    }),
    showOrderEnded: assign({
      error: (_, order: FusdOrderJson): ApiErrorBody => ({
        code: order.order.failure?.code ?? order.order.status.toUpperCase(),
        message: order.order.failure?.message ?? 'This order ended before it was paid. Please try again.',
      }),
    }),
    clearError: assign({ error: null }),
    endPaid: assign({ result: (_, order: FusdOrderJson) => railPaid(order.order, 'fusd') }),
    endRedirect: assign({ result: (_, charge: CoinbaseChargeJson) => railRedirect(charge.hostedUrl!) }),
    endBack: assign({ result: railBack }),
  },
}).createMachine({
  id: 'balancePayment',
  context: ({ input }) => ({
    ...input,
    balance: null,
    topup: null,
    topupReads: 0,
    acknowledged: false,
    topupKey: null,
    orderKey: null,
    order: null,
    transactionId: null,
    reports: 0,
    error: null,
    result: null,
  }),
  initial: 'starting',
  output: ({ context }) => context.result!,
  states: {
    starting: {
      always: [{ guard: 'returnedFromTopup', target: 'awaitingTopup' }, { target: 'reading' }],
    },
    /** Back from the top-up's page: its FUSD is awaited before the balance is read. */
    awaitingTopup: {
      ...followTopupState('#balancePayment.reading'),
      on: { 'balance.back': { target: 'back', actions: 'endBack' } },
    },
    reading: {
      tags: ['busy'],
      invoke: {
        id: 'readBalance',
        src: 'readBalance',
        input: ({ context }) => ({ address: context.walletAddress }),
        onDone: [
          {
            guard: { type: 'covers', params: ({ event }) => event.output },
            target: 'review',
            actions: { type: 'keepBalance', params: ({ event }) => event.output },
          },
          { target: 'short', actions: { type: 'keepBalance', params: ({ event }) => event.output } },
        ],
        onError: { target: 'readFailed', actions: { type: 'showError', params: error } },
      },
    },
    readFailed: {
      on: {
        'balance.retry': { target: 'reading', actions: 'clearError' },
        'balance.back': { target: 'back', actions: 'endBack' },
      },
    },
    /** Insufficient funds: the crypto top-up panel. */
    short: {
      on: {
        'balance.topup': { guard: 'canTopUp', target: 'toppingUp', actions: 'ensureTopupKey' },
        'balance.retry': { target: 'reading', actions: 'clearError' },
        'balance.back': { target: 'back', actions: 'endBack' },
      },
    },
    toppingUp: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'createTopup',
        src: 'createTopup',
        input: ({ context }) => ({
          amount: topupAmount(context.price, context.balance ?? 0),
          idempotencyKey: context.topupKey!,
          returnTo: context.returnTo,
        }),
        onDone: [
          {
            guard: { type: 'hasHostedPage', params: ({ event }) => event.output },
            target: 'redirect',
            actions: { type: 'endRedirect', params: ({ event }) => event.output },
          },
          { target: 'short', actions: ['showNoHostedPage', 'dropTopupKey'] },
        ],
        onError: [
          {
            guard: { type: 'networkFailure', params: error },
            target: 'short',
            actions: { type: 'showError', params: error },
          },
          { target: 'short', actions: [{ type: 'showError', params: error }, 'dropTopupKey'] },
        ],
      },
    },
    review: {
      on: {
        'balance.acknowledge': { guard: 'acknowledgementChanges', actions: 'acknowledge' },
        'balance.submit': { guard: 'acknowledged', target: 'reserving', actions: 'ensureOrderKey' },
        'balance.back': { target: 'back', actions: 'endBack' },
      },
    },
    reserving: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'createOrder',
        src: 'createOrder',
        input: ({ context }) => ({
          item: context.item,
          price: context.price,
          idempotencyKey: context.orderKey!,
        }),
        onDone: [
          {
            guard: { type: 'alreadyPaid', params: ({ event }) => event.output },
            target: 'paid',
            actions: { type: 'endPaid', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'ended', params: ({ event }) => event.output },
            target: 'review',
            actions: [{ type: 'showOrderEnded', params: ({ event }) => event.output }, 'dropOrderKey'],
          },
          { target: 'signing', actions: { type: 'keepOrder', params: ({ event }) => event.output } },
        ],
        onError: [
          {
            guard: { type: 'networkFailure', params: error },
            target: 'review',
            actions: { type: 'showError', params: error },
          },
          { target: 'review', actions: [{ type: 'showError', params: error }, 'dropOrderKey'] },
        ],
      },
    },
    signing: {
      tags: ['busy'],
      invoke: {
        id: 'payOrder',
        src: 'payOrder',
        input: ({ context }) => ({
          address: context.walletAddress,
          orderId: context.order!.id,
          amount: context.order!.fusdAmount,
        }),
        onDone: {
          target: 'reporting',
          actions: [{ type: 'keepTransaction', params: ({ event }) => event.output }, 'resetReports'],
        },
        // Refused in the wallet or by the chain: nothing was paid; Pay again answers the same order.
        onError: { target: 'review', actions: { type: 'showError', params: error } },
      },
    },
    reporting: {
      tags: ['busy'],
      entry: 'countReport',
      invoke: {
        id: 'reportPayment',
        src: 'reportPayment',
        input: ({ context }) => ({ orderId: context.order!.id, transactionId: context.transactionId! }),
        onDone: [
          {
            guard: { type: 'alreadyPaid', params: ({ event }) => event.output },
            target: 'paid',
            actions: { type: 'endPaid', params: ({ event }) => event.output },
          },
          // The payment did not pay the order (it ended meanwhile): it is on its way back.
          {
            target: 'review',
            actions: [{ type: 'showOrderEnded', params: ({ event }) => event.output }, 'dropOrderKey'],
          },
        ],
        onError: [
          { guard: 'reportsLeft', target: 'reportWaiting', actions: { type: 'showError', params: error } },
          { target: 'reportFailed', actions: { type: 'showError', params: error } },
        ],
      },
    },
    reportWaiting: {
      tags: ['busy'],
      after: { confirmInterval: 'reporting' },
    },
    reportFailed: {
      on: { 'balance.retry': { target: 'reporting', actions: ['clearError', 'resetReports'] } },
    },
    paid: { type: 'final' },
    redirect: { type: 'final' },
    back: { type: 'final' },
  },
});

export type BalancePaymentActor = ActorRefFrom<typeof balancePaymentMachine>;
