import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { errorMessage } from '#domain/errors';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import { topupAmount } from '#domain/schemas/crypto';
import type { FusdOrderJson } from '#domain/schemas/fusd';
import {
  type BalanceOrderRequest,
  type BalancePaymentInput,
  balancePaymentMachine,
  type PayOrderRequest,
  type TopupChargeRequest,
} from '../machines/balancePayment';
import { connectBalancePayment } from '../machines/balancePaymentView';
import { railPaid } from '../machines/railOutcome';
import {
  balancePaymentModel,
  COVERS,
  fusdOrder,
  ITEM,
  NETWORK_ERROR,
  ORDER_ID,
  PENDING_ERROR,
  PRICE,
  RETURN_TO,
  SCENARIOS,
  SHORT,
  SOLD_OUT_ERROR,
  TX_ID,
  WALLET,
  WALLET_ERROR,
} from './balancePayment.model';
import { flushCoverage } from './coverage-store';
import { CHARGE_ID, HOSTED_URL, topupCharge } from './cryptoTopup.model';
import { generatePaths, runPath } from './harness';

describe('balancePayment machine paths', () => {
  const paths = generatePaths(balancePaymentModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(10));
  for (const path of paths) it(path.description, () => runPath(balancePaymentModel, path));
  afterAll(() => flushCoverage('machine'));
});

interface Script {
  balance?: () => Promise<number>;
  order?: (call: number) => Promise<FusdOrderJson>;
  pay?: (call: number) => Promise<{ transactionId: string }>;
  report?: (call: number) => Promise<FusdOrderJson>;
  topup?: () => Promise<CoinbaseChargeJson>;
  returned?: (read: number) => Promise<CoinbaseChargeJson>;
}
const fail = (error: unknown) => async (): Promise<never> => {
  throw error;
};

/** The real machine with scripted answers and a 1 ms report interval; every request is recorded. */
function start(input: BalancePaymentInput, script: Script) {
  const orders: BalanceOrderRequest[] = [];
  const payments: PayOrderRequest[] = [];
  const reports: { orderId: string; transactionId: string }[] = [];
  const topups: TopupChargeRequest[] = [];
  const topupReads: string[] = [];
  const actor = createActor(
    balancePaymentMachine.provide({
      actors: {
        readBalance: fromPromise(script.balance ?? (async () => COVERS)),
        createOrder: fromPromise<FusdOrderJson, BalanceOrderRequest>(async ({ input }) => {
          orders.push(input);
          return (script.order ?? (async () => fusdOrder('created')))(orders.length);
        }),
        payOrder: fromPromise<{ transactionId: string }, PayOrderRequest>(async ({ input }) => {
          payments.push(input);
          return (script.pay ?? (async () => ({ transactionId: TX_ID })))(payments.length);
        }),
        reportPayment: fromPromise<FusdOrderJson, { orderId: string; transactionId: string }>(
          async ({ input }) => {
            reports.push(input);
            return (script.report ?? (async () => fusdOrder('authorized')))(reports.length);
          },
        ),
        createTopup: fromPromise<CoinbaseChargeJson, TopupChargeRequest>(async ({ input }) => {
          topups.push(input);
          return (script.topup ?? (async () => topupCharge('NEW')))();
        }),
        getTopup: fromPromise<CoinbaseChargeJson, { id: string }>(async ({ input }) => {
          topupReads.push(input.id);
          return (script.returned ?? (async () => topupCharge('SEND_FUSD_SUCCEEDED')))(topupReads.length);
        }),
      },
      delays: { confirmInterval: 1, topupPollInterval: 1 },
    }),
    { input },
  ).start();
  const send = actor.send.bind(actor);
  const view = () => connectBalancePayment(actor.getSnapshot(), send);
  const settled = () => waitFor(actor, (s) => !s.hasTag('busy'));
  return { actor, send, view, settled, orders, payments, reports, topups, topupReads };
}

describe('paying with the balance', () => {
  it('reserves the order, pays its exact amount from the wallet, reports it and ends with the order', async () => {
    const { actor, send, view, settled, orders, payments, reports } = start(SCENARIOS.topUp, {});
    await settled();
    expect(view()).toMatchObject({
      panel: 'review',
      title: 'Pay with your balance',
      itemTitle: 'Night Market',
      price: '$25',
      balance: '$40',
      insufficient: null,
      payLabel: 'Pay $25 from balance',
      canPay: false,
      canBack: true,
    });
    send({ type: 'balance.acknowledge', value: true });
    expect(view().canPay).toBe(true);
    send({ type: 'balance.submit' });
    expect(view()).toMatchObject({ busy: true, status: 'Reserving your edition…', canBack: false });
    await waitFor(actor, (s) => s.status === 'done');
    expect(orders).toEqual([
      { item: ITEM, price: PRICE, idempotencyKey: expect.stringMatching(/^[\w-]{36}$/) },
    ]);
    expect(payments).toEqual([{ address: WALLET, orderId: ORDER_ID, amount: '25.00000000' }]);
    expect(reports).toEqual([{ orderId: ORDER_ID, transactionId: TX_ID }]);
    expect(actor.getSnapshot().output).toEqual(railPaid(fusdOrder('authorized').order, 'fusd'));
  });

  it('short of the price: shows Insufficient funds and tops up the shortfall with crypto', async () => {
    const { actor, send, view, settled, topups, orders } = start(SCENARIOS.topUp, {
      balance: async () => SHORT,
    });
    await settled();
    expect(view()).toMatchObject({
      panel: 'short',
      title: 'Add funds with crypto',
      balance: '$12',
      insufficient: 'Insufficient funds',
      topupLabel: 'Add $13 with crypto',
      canTopUp: true,
      canPay: false,
      canRetry: true,
      retryLabel: 'Check balance again',
    });
    send({ type: 'balance.topup' });
    await waitFor(actor, (s) => s.status === 'done');
    // The payment page sends the buyer back to the item page, the checkout open on this rail.
    expect(topups).toEqual([
      { amount: 1300, idempotencyKey: expect.stringMatching(/^[\w-]{36}$/), returnTo: RETURN_TO },
    ]);
    expect(orders).toEqual([]);
    expect(actor.getSnapshot().output).toEqual({ type: 'redirect', url: HOSTED_URL });
  });

  it('gives the top-up and the order each their own key: a retried top-up is never taken for the order', async () => {
    let balance = SHORT;
    const { actor, send, settled, topups, orders } = start(SCENARIOS.topUp, {
      balance: async () => balance,
      topup: fail(NETWORK_ERROR),
    });
    await settled();
    // The top-up got no answer: its key stays open for the next try of the top-up.
    send({ type: 'balance.topup' });
    await settled();
    // Funded meanwhile: checking again goes on to pay, a purchase with a key of its own.
    balance = COVERS;
    send({ type: 'balance.retry' });
    await settled();
    send({ type: 'balance.acknowledge', value: true });
    send({ type: 'balance.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(topups).toHaveLength(1);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.idempotencyKey).not.toBe(topups[0]!.idempotencyKey);
  });

  it('tops up at least $1 and at most $10,000', () => {
    expect(topupAmount(2500, 2450)).toBe(100);
    expect(topupAmount(2500, 0)).toBe(2500);
    expect(topupAmount(5_000_000, 0)).toBe(1_000_000);
  });

  it('offers no top-up when crypto is off; checking again after funding goes on to pay', async () => {
    let balance = SHORT;
    const { send, view, settled } = start(SCENARIOS.noTopUp, { balance: async () => balance });
    await settled();
    expect(view()).toMatchObject({ panel: 'short', topupLabel: null, canTopUp: false });
    send({ type: 'balance.topup' });
    expect(view().panel).toBe('short');
    balance = COVERS;
    send({ type: 'balance.retry' });
    await settled();
    expect(view()).toMatchObject({ panel: 'review', balance: '$40', insufficient: null });
  });

  it('pays the same order again after the wallet refused, never reserving a second one', async () => {
    const { actor, send, view, settled, orders, payments } = start(SCENARIOS.topUp, {
      pay: (n) => (n === 1 ? fail(WALLET_ERROR)() : Promise.resolve({ transactionId: TX_ID })),
    });
    await settled();
    send({ type: 'balance.acknowledge', value: true });
    send({ type: 'balance.submit' });
    await settled();
    expect(view()).toMatchObject({ panel: 'review', error: errorMessage(WALLET_ERROR), canPay: true });
    send({ type: 'balance.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(orders).toHaveLength(2);
    expect(orders[1]!.idempotencyKey).toBe(orders[0]!.idempotencyKey);
    expect(payments).toHaveLength(2);
  });

  it('does not pay an order the server already saw paid', async () => {
    const { actor, send, settled, payments } = start(SCENARIOS.topUp, {
      order: async () => fusdOrder('minting'),
    });
    await settled();
    send({ type: 'balance.acknowledge', value: true });
    send({ type: 'balance.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(payments).toEqual([]);
    expect(actor.getSnapshot().output).toMatchObject({ type: 'paid' });
  });

  it('starts a new attempt after the order ended or was refused, and keeps the key after a network failure', async () => {
    const answers = [
      fail(NETWORK_ERROR),
      fail(SOLD_OUT_ERROR),
      async () => fusdOrder('expired'),
      async () => fusdOrder('created'),
    ];
    const { actor, send, view, settled, orders } = start(SCENARIOS.topUp, {
      order: (n) => answers[n - 1]!(),
    });
    await settled();
    send({ type: 'balance.acknowledge', value: true });
    for (const expected of [NETWORK_ERROR.body.message, SOLD_OUT_ERROR.body.message]) {
      send({ type: 'balance.submit' });
      await settled();
      expect(view().error).toBe(expected);
    }
    send({ type: 'balance.submit' });
    await settled();
    expect(view().error).toBe('The payment was not made in time. Nothing was taken from your balance.');
    send({ type: 'balance.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    const keys = orders.map((o) => o.idempotencyKey);
    expect(keys[1]).toBe(keys[0]);
    expect(new Set(keys).size).toBe(3);
  });

  it('reports the payment again every interval, 50 times, then offers a retry; the transaction is sent once', async () => {
    let failing = true;
    const { actor, send, view, settled, payments, reports } = start(SCENARIOS.topUp, {
      report: () => (failing ? fail(PENDING_ERROR)() : Promise.resolve(fusdOrder('authorized'))),
    });
    await settled();
    send({ type: 'balance.acknowledge', value: true });
    send({ type: 'balance.submit' });
    await waitFor(actor, (s) => s.matches('reportFailed'), { timeout: 5000 });
    expect(reports).toHaveLength(50);
    expect(view()).toMatchObject({
      panel: 'failed',
      canBack: false,
      canRetry: true,
      retryLabel: 'Confirm payment again',
      error: PENDING_ERROR.body.message,
    });
    failing = false;
    send({ type: 'balance.retry' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(payments).toHaveLength(1);
  });

  it('ends with back from the review, the short panel and a failed read', async () => {
    for (const balance of [async () => COVERS, async () => SHORT, fail(NETWORK_ERROR)]) {
      const { actor, send, settled } = start(SCENARIOS.topUp, { balance });
      await settled();
      send({ type: 'balance.back' });
      expect(actor.getSnapshot().output).toEqual({ type: 'back' });
    }
  });
});

describe('the balance service over the API', () => {
  it('reserves a blueprint or a pack at the price seen, and reports the transaction', async () => {
    const { createApi } = await import('../src/services/api');
    const { balanceService } = await import('../src/services/balance');
    const requests: { url: string; method: string; body: unknown }[] = [];
    const api = createApi({
      baseUrl: 'http://app.test/api',
      getToken: () => 'session',
      onUnauthorized: () => {},
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        requests.push({ url: request.url, method: request.method, body: JSON.parse(await request.text()) });
        return new Response(JSON.stringify(fusdOrder('created')), {
          status: 201,
          headers: { 'content-type': 'application/json' },
        });
      }) as typeof fetch,
    });
    const service = balanceService(api);
    await service.createOrder({ item: ITEM, price: PRICE, idempotencyKey: 'key-1' });
    await service.createOrder({
      item: { kind: 'pack', id: ORDER_ID, title: 'Pack' },
      price: 6000,
      idempotencyKey: 'key-2',
    });
    await service.reportPayment(ORDER_ID, TX_ID);
    expect(requests).toEqual([
      {
        method: 'POST',
        url: 'http://app.test/api/fusd-orders',
        body: { blueprintId: ITEM.id, expectedPrice: PRICE, idempotencyKey: 'key-1' },
      },
      {
        method: 'POST',
        url: 'http://app.test/api/fusd-orders',
        body: { blueprintPackId: ORDER_ID, expectedPrice: 6000, idempotencyKey: 'key-2' },
      },
      { method: 'PATCH', url: `http://app.test/api/fusd-orders/${ORDER_ID}`, body: { transactionId: TX_ID } },
    ]);
  });
});

describe('back from a top-up’s payment page', () => {
  it('awaits the top-up’s FUSD, then reads the balance and offers the payment, saying what was added', async () => {
    const balances: number[] = [];
    const { actor, view, topupReads } = start(SCENARIOS.returned, {
      returned: async (read) => topupCharge(read < 3 ? 'PENDING' : 'SEND_FUSD_SUCCEEDED'),
      balance: async () => {
        balances.push(balances.length);
        return COVERS;
      },
    });
    expect(view()).toMatchObject({ panel: 'loading', busy: true, canBack: true, topupNote: null });
    await waitFor(actor, (s) => s.matches('review'));
    expect(topupReads).toEqual([CHARGE_ID, CHARGE_ID, CHARGE_ID]);
    expect(balances).toEqual([0]);
    expect(view()).toMatchObject({ panel: 'review', topupNote: 'Added $25 to your balance.' });
  });

  it('shows the top-up offer again when the top-up was not paid', async () => {
    const { actor, view, topupReads } = start(SCENARIOS.returned, {
      returned: async () => topupCharge('EXPIRED'),
      balance: async () => SHORT,
    });
    await waitFor(actor, (s) => s.matches('short'));
    expect(topupReads).toEqual([CHARGE_ID]);
    expect(view()).toMatchObject({ topupNote: 'The top-up was not paid.', canTopUp: true });
  });
});
