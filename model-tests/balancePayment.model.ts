import type { AnyMachineSnapshot } from 'xstate';
import type { OrderStatus } from '#domain/schemas/checkout';
import type { FusdOrderJson } from '#domain/schemas/fusd';
import {
  type BalancePaymentContext,
  type BalancePaymentEvent,
  type BalancePaymentInput,
  balancePaymentMachine,
} from '../machines/balancePayment';
import { CHARGE_ID, topupCharge } from './cryptoTopup.model';
import type { MachineModel } from './harness';

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
    c.key ? 'key' : null,
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
};
