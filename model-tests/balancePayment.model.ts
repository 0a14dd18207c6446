import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import type { OrderStatus } from '#domain/schemas/checkout';
import type { FusdOrderJson } from '#domain/schemas/fusd';
import {
  type BalancePaymentContext,
  type BalancePaymentEvent,
  type BalancePaymentInput,
  balancePaymentMachine,
} from '../machines/balancePayment';
import { railPaid } from '../machines/railOutcome';
import { CHARGE_ID, HOSTED_URL, topupCharge } from './cryptoTopup.model';
import { after, entered, expectNotCalled, expectOutput, expectWorking, inputsOf } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof balancePaymentMachine>;
const errorCode = (o: O) =>
  ((o.event as { error?: { code?: string; body?: { code: string } } }).error?.body?.code ??
    (o.event as { error?: { code?: string } }).error?.code ??
    null) as string | null;
const outputOf = <T>(o: O) => (o.event as unknown as { output: T }).output;
/** The idempotency keys of every reservation so far, the last one last. */
const orderKeys = (o: O) =>
  inputsOf(o, 'createOrder').map((i) => (i as { idempotencyKey: string }).idempotencyKey);
/** The idempotency keys of every top-up charge so far, the last one last. */
const topupKeys = (o: O) =>
  inputsOf(o, 'createTopup').map((i) => (i as { idempotencyKey: string }).idempotencyKey);
/**
 * Whether this Pay answers the attempt before it: the last thing that happened to it was no
 * answer to the reservation, or a refusal in the wallet (nothing was paid).
 */
function repeatsAttempt(o: O) {
  const last = o.history
    .slice(0, -1)
    .findLast((e) =>
      /^xstate\.(done|error)\.actor\.(createOrder|payOrder|reportPayment|createTopup)$/.test(e.type),
    );
  if (last?.type === 'xstate.error.actor.payOrder') return true;
  return (
    last?.type === 'xstate.error.actor.createOrder' &&
    (last.error as typeof NETWORK_ERROR).body.code === 'NETWORK_FAILURE'
  );
}

/** Reports of the payment before the panel offers a retry, in the model (the live machine reports 50 times). */
export const MODEL_MAX_REPORTS = 2;

export const ITEM = {
  kind: 'blueprint' as const,
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  title: 'Night Market',
};
export const PRICE = 2500;
export const WALLET = '0x01cf0e2f2f715450';
export const ORDER_ID = '4d3c2b1a-0f9e-4d8c-9b7a-6f5e4d3c2b1a';
export const TX_ID = 'cd'.repeat(32);
/** $40 covers the $25 price; $12 is short of it by $13. */
export const COVERS = 4000;
export const SHORT = 1200;

/** The balance order as fusd-orders answers it, in `status`. */
export function fusdOrder(status: OrderStatus): FusdOrderJson {
  return {
    id: ORDER_ID,
    amount: PRICE,
    fusdAmount: '25.00000000',
    expiresAt: '2026-11-22T10:15:00.000Z',
    payments: [],
    order: {
      id: ORDER_ID,
      method: 'fusd',
      item: ITEM,
      amount: PRICE,
      currency: 'USD',
      status,
      walletAddress: WALLET,
      editions: [],
      failure:
        status === 'expired'
          ? {
              code: 'EXPIRED',
              message: 'The payment was not made in time. Nothing was taken from your balance.',
            }
          : null,
      events: [],
      createdAt: '2026-11-22T10:00:00.000Z',
    },
  };
}

export const NETWORK_ERROR = {
  status: 0,
  body: {
    code: 'NETWORK_FAILURE',
    message: 'Unknown connection error. Please check your connection and try again.',
  },
};
export const SOLD_OUT_ERROR = {
  status: 409,
  body: { code: 'SOLD_OUT', message: 'Sold out! Every edition of this item has been bought.' },
};
export const PENDING_ERROR = {
  status: 409,
  body: {
    code: 'TRANSACTION_PENDING',
    message: 'The transaction is not confirmed on chain yet. Please wait a moment.',
  },
};
/** The wallet refused (the buyer declined, or the chain reverted). */
export const WALLET_ERROR = { code: 'TRANSACTION', message: 'The transaction did not go through.' };

/** Where the rail's top-up returns: the item page, the checkout open on the balance rail. */
export const RETURN_TO = `/nft/${ITEM.id}?buy=balance`;
/** Reads of a returned top-up before the rail reads the balance anyway, in the model (the live machine reads 50 times). */
export const MODEL_MAX_TOPUP_READS = 2;

export const SCENARIOS: Record<'topUp' | 'noTopUp' | 'returned', BalancePaymentInput> = {
  topUp: { item: ITEM, price: PRICE, walletAddress: WALLET, canTopUp: true, returnTo: RETURN_TO },
  noTopUp: { item: ITEM, price: PRICE, walletAddress: WALLET, canTopUp: false, returnTo: RETURN_TO },
  returned: {
    item: ITEM,
    price: PRICE,
    walletAddress: WALLET,
    canTopUp: true,
    returnTo: RETURN_TO,
    returnedTopup: CHARGE_ID,
  },
};

function userEvents(c: BalancePaymentContext): BalancePaymentEvent[] {
  return [
    { type: 'balance.acknowledge', value: !c.acknowledged },
    { type: 'balance.submit' },
    { type: 'balance.topup' },
    { type: 'balance.retry' },
    { type: 'balance.back' },
  ];
}

/** What a step shows: the state, the balance, the acknowledgement, an open attempt, reports, the error. */
export function serializeBalancePayment(s: AnyMachineSnapshot) {
  const c = s.context as BalancePaymentContext;
  if (s.status === 'done') return JSON.stringify([s.value, s.output]);
  return JSON.stringify([
    s.value,
    c.balance,
    c.acknowledged,
    c.topupKey ? 'topup key' : null,
    c.orderKey ? 'order key' : null,
    c.order ? 'order' : null,
    c.reports,
    c.error?.code ?? null,
    // A returned top-up shows by its status (its note) and, while it is awaited, by the reads so far.
    c.topup?.status ?? null,
    s.matches('awaitingTopup') ? c.topupReads : null,
  ]);
}

export const balancePaymentModel: MachineModel<typeof balancePaymentMachine> = {
  machine: balancePaymentMachine,
  fakes: ['readBalance', 'createOrder', 'payOrder', 'reportPayment', 'createTopup', 'getTopup'],
  provide: {
    guards: {
      reportsLeft: ({ context }) => context.reports < MODEL_MAX_REPORTS,
      topupReadsLeft: ({ context }) => context.topupReads < MODEL_MAX_TOPUP_READS,
    },
  },
  scenarios: [
    { name: 'a buyer paying from the balance', input: SCENARIOS.topUp },
    { name: 'a buyer short of funds where crypto is off', input: SCENARIOS.noTopUp },
    { name: 'a buyer back from a top-up’s payment page', input: SCENARIOS.returned },
  ],
  events: (s) => [
    ...userEvents(s.context as BalancePaymentContext),
    { type: 'xstate.done.actor.readBalance', output: COVERS },
    { type: 'xstate.done.actor.readBalance', output: SHORT },
    { type: 'xstate.error.actor.readBalance', error: NETWORK_ERROR },
    { type: 'xstate.done.actor.createTopup', output: topupCharge('NEW') },
    { type: 'xstate.done.actor.createTopup', output: topupCharge('NEW', { hostedUrl: null }) },
    { type: 'xstate.error.actor.createTopup', error: NETWORK_ERROR },
    { type: 'xstate.error.actor.createTopup', error: SOLD_OUT_ERROR },
    { type: 'xstate.done.actor.createOrder', output: fusdOrder('created') },
    { type: 'xstate.done.actor.createOrder', output: fusdOrder('authorized') },
    { type: 'xstate.done.actor.createOrder', output: fusdOrder('expired') },
    { type: 'xstate.error.actor.createOrder', error: NETWORK_ERROR },
    { type: 'xstate.error.actor.createOrder', error: SOLD_OUT_ERROR },
    { type: 'xstate.done.actor.payOrder', output: { transactionId: TX_ID } },
    { type: 'xstate.error.actor.payOrder', error: WALLET_ERROR },
    { type: 'xstate.done.actor.reportPayment', output: fusdOrder('authorized') },
    { type: 'xstate.done.actor.reportPayment', output: fusdOrder('expired') },
    { type: 'xstate.error.actor.reportPayment', error: PENDING_ERROR },
    { type: 'xstate.after.confirmInterval.balancePayment.reportWaiting' },
    { type: 'xstate.done.actor.getTopup', output: topupCharge('SEND_FUSD_SUCCEEDED') },
    { type: 'xstate.done.actor.getTopup', output: topupCharge('EXPIRED') },
    { type: 'xstate.done.actor.getTopup', output: topupCharge('PENDING') },
    { type: 'xstate.error.actor.getTopup', error: NETWORK_ERROR },
    { type: 'xstate.after.topupPollInterval.balancePayment.awaitingTopup.waiting' },
  ],
  serializeState: serializeBalancePayment,
  expect: {
    // Back from a top-up's page: its charge is followed, at most so many reads, before the balance.
    awaitingTopup: (o) => {
      expect(o.snapshot.context.returnedTopup).toBe(CHARGE_ID);
      expect(o.snapshot.context.topupReads).toBeLessThanOrEqual(MODEL_MAX_TOPUP_READS);
      expectNotCalled(o, 'readBalance');
    },
    'awaitingTopup.reading': (o) => {
      expectWorking(o, 'getTopup', { id: CHARGE_ID });
      expect(o.snapshot.context.topupReads).toBe(inputsOf(o, 'getTopup').length);
    },
    'awaitingTopup.waiting': (o) => {
      if (after(o, 'done', 'getTopup')) expect(outputOf<{ status: string }>(o).status).toBe('PENDING');
      else expect(after(o, 'error', 'getTopup')).toBe(true);
    },
    reading: (o) => {
      expectWorking(o, 'readBalance', { address: WALLET });
      // After a followed top-up: only once it settled, or out of reads.
      if (after(o, 'done', 'getTopup') && outputOf<{ status: string }>(o).status === 'PENDING')
        expect(o.snapshot.context.topupReads).toBe(MODEL_MAX_TOPUP_READS);
      if (after(o, 'error', 'getTopup')) expect(o.snapshot.context.topupReads).toBe(MODEL_MAX_TOPUP_READS);
    },
    readFailed: (o) => {
      expect(after(o, 'error', 'readBalance')).toBe(true);
      expect(o.snapshot.context.error?.code).toBe('NETWORK_FAILURE');
    },
    // Insufficient funds: the top-up of the shortfall is offered (never below the price).
    short: (o) => {
      const c = o.snapshot.context;
      expect(c.balance).toBe(SHORT);
      expect(c.balance!).toBeLessThan(PRICE);
      if (after(o, 'error', 'createTopup')) {
        expect(c.error?.code).toBe(errorCode(o));
        if (errorCode(o) !== 'NETWORK_FAILURE') expect(c.topupKey).toBeNull();
        else expect(c.topupKey).toBe(o.before.context.topupKey);
      }
      if (after(o, 'done', 'createTopup')) expect(c.error?.code).toBe('CREATE_COINBASE_CHARGE');
      expectNotCalled(o, 'createOrder');
    },
    toppingUp: (o) => {
      const c = o.snapshot.context;
      expect(c.canTopUp).toBe(true);
      expectWorking(o, 'createTopup', {
        amount: PRICE - SHORT,
        idempotencyKey: c.topupKey,
        returnTo: RETURN_TO,
      });
      // A top-up's key is its own: never one a purchase was reserved with.
      expect(orderKeys(o)).not.toContain(c.topupKey);
    },
    review: (o) => {
      const c = o.snapshot.context;
      expect(c.balance!).toBeGreaterThanOrEqual(PRICE);
      if (o.event.type === 'balance.submit') expect(c.acknowledged).toBe(false);
      if (o.event.type === 'balance.acknowledge') expect(c.acknowledged).toBe(o.event.value);
      // A refusal comes back here with its message; the order that ended asks for a new attempt.
      if (after(o, 'error', 'createOrder') || after(o, 'error', 'payOrder')) expect(c.error).not.toBeNull();
      if (after(o, 'done', 'createOrder') || after(o, 'done', 'reportPayment')) {
        expect(c.error?.code).toBe('EXPIRED');
        expect(c.orderKey).toBeNull();
      }
    },
    // One reservation per attempt, at the price seen; Pay again after no answer or a wallet refusal
    // answers the same order.
    reserving: (o) => {
      const c = o.snapshot.context;
      expect(o.event.type).toBe('balance.submit');
      expect(c.acknowledged).toBe(true);
      expectWorking(o, 'createOrder', { item: ITEM, price: PRICE, idempotencyKey: c.orderKey });
      // A purchase's key is its own: never one a top-up was opened with.
      expect(topupKeys(o)).not.toContain(c.orderKey);
      const keys = orderKeys(o);
      if (repeatsAttempt(o)) expect(keys.at(-1)).toBe(keys.at(-2));
      else expect(keys.slice(0, -1)).not.toContain(keys.at(-1));
    },
    // The wallet pays the order's exact FUSD amount, for an order still waiting for it.
    signing: (o) => {
      expect(after(o, 'done', 'createOrder')).toBe(true);
      expect(outputOf<FusdOrderJson>(o).order.status).toBe('created');
      expectWorking(o, 'payOrder', { address: WALLET, orderId: ORDER_ID, amount: '25.00000000' });
    },
    // The transaction is reported (again and again while not sealed), never sent twice.
    reporting: (o) => {
      expectWorking(o, 'reportPayment', { orderId: ORDER_ID, transactionId: TX_ID });
      expect(o.snapshot.context.reports).toBeLessThanOrEqual(MODEL_MAX_REPORTS);
      const payments = o.history.filter((e) => e.type === 'xstate.done.actor.payOrder').length;
      const orders = o.history.filter(
        (e) =>
          e.type === 'xstate.done.actor.createOrder' &&
          (e.output as FusdOrderJson).order.status === 'created',
      ).length;
      expect(payments).toBeLessThanOrEqual(orders);
      if (entered(o, 'reporting') && o.event.type === 'xstate.done.actor.payOrder')
        expect(o.snapshot.context.reports).toBe(1);
    },
    reportWaiting: (o) => {
      expect(after(o, 'error', 'reportPayment')).toBe(true);
      expect(o.snapshot.context.reports).toBeLessThan(MODEL_MAX_REPORTS);
    },
    reportFailed: (o) => {
      expect(after(o, 'error', 'reportPayment')).toBe(true);
      expect(o.snapshot.context.reports).toBe(MODEL_MAX_REPORTS);
      expect(o.snapshot.context.error?.code).toBe('TRANSACTION_PENDING');
    },
    // Paid (or found paid already): the order's purchase-complete page.
    paid: (o) => {
      expect(after(o, 'done', 'createOrder') || after(o, 'done', 'reportPayment')).toBe(true);
      expectOutput(o, railPaid(fusdOrder('authorized').order, 'fusd'));
    },
    redirect: (o) => {
      expect(after(o, 'done', 'createTopup')).toBe(true);
      expectOutput(o, { type: 'redirect', url: HOSTED_URL });
    },
    back: (o) => {
      expect(o.event.type).toBe('balance.back');
      expectOutput(o, { type: 'back' });
    },
  },
};
