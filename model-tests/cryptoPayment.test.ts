import { afterAll, describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, waitFor } from 'xstate';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import {
  CRYPTO_NETWORK_WARNING,
  type CryptoChargeRequest,
  type CryptoPaymentInput,
  connectCryptoPayment,
  cryptoPaymentMachine,
} from '../machines/cryptoPayment';
import { flushCoverage } from './coverage-store';
import {
  BUYER_EMAIL,
  CHARGE_ID,
  CHARGE_PENDING_ERROR,
  charge,
  cryptoPaymentModel,
  HOSTED_URL,
  ITEM,
  NETWORK_ERROR,
  OTHER_CHARGE_ID,
  PACK,
  PRICE,
  PROVIDER_ERROR,
  SCENARIOS,
  SOLD_OUT_ERROR,
} from './cryptoPayment.model';
import { generatePaths, runPath } from './harness';

describe('cryptoPayment machine paths', () => {
  const paths = generatePaths(cryptoPaymentModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(10));
  for (const path of paths) it(path.description, () => runPath(cryptoPaymentModel, path));
  afterAll(() => flushCoverage('machine'));
});

type Answer<T> = (call: number) => Promise<T>;

/** The real machine with scripted answers and numbered keys (key-1, key-2, …); every request is recorded. */
function start(input: CryptoPaymentInput, answer: Answer<CoinbaseChargeJson>) {
  const calls: CryptoChargeRequest[] = [];
  let keys = 0;
  const actor = createActor(
    cryptoPaymentMachine.provide({
      actors: {
        createCharge: fromPromise<CoinbaseChargeJson, CryptoChargeRequest>(async ({ input }) => {
          calls.push(input);
          return answer(calls.length);
        }),
      },
      actions: { newKey: assign({ attempt: () => ({ key: `key-${++keys}` }) }) },
    }),
    { input },
  ).start();
  const send = actor.send.bind(actor);
  const view = () => connectCryptoPayment(actor.getSnapshot(), send);
  const settled = () => waitFor(actor, (s) => !s.hasTag('busy'));
  const pay = async () => {
    send({ type: 'crypto.submit' });
    await settled();
  };
  return { actor, calls, send, view, settled, pay, keys: () => calls.map((c) => c.idempotencyKey) };
}

const fail = (error: unknown) => async (): Promise<never> => {
  throw error;
};

describe('paying with crypto', () => {
  it('opens a charge for the item at the price seen and ends on its hosted page', async () => {
    const { actor, calls, send } = start(SCENARIOS.blueprint, async () => charge('open'));
    send({ type: 'crypto.acknowledge', value: true });
    send({ type: 'crypto.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls).toEqual([{ item: ITEM, price: PRICE, idempotencyKey: 'key-1' }]);
    expect(actor.getSnapshot().output).toEqual({ type: 'redirect', url: HOSTED_URL });
  });

  it('shows the item, the coins, the warning, and needs the acknowledgement to pay at all', async () => {
    let open!: (charge: CoinbaseChargeJson) => void;
    const { actor, calls, send, view } = start(
      SCENARIOS.blueprint,
      () => new Promise<CoinbaseChargeJson>((resolve) => (open = resolve)),
    );
    expect(view()).toMatchObject({
      panel: 'review',
      title: 'Pay with crypto',
      itemTitle: 'Night Market',
      price: '$25',
      payLabel: 'Pay $25 with crypto',
      warning:
        'Send only the coin and network shown on the payment page: funds sent on an unsupported network are lost.',
      acknowledged: false,
      canPay: false,
      canBack: true,
      busy: false,
      status: null,
      error: null,
      receipt: `The receipt goes to ${BUYER_EMAIL}.`,
    });
    expect(view().warning).toBe(CRYPTO_NETWORK_WARNING);
    expect(view().coins.map((c) => c.symbol)).toEqual(['ETH', 'BTC', 'BCH', 'USDC']);
    send({ type: 'crypto.submit' });
    expect(actor.getSnapshot().value).toBe('review');
    send({ type: 'crypto.acknowledge', value: true });
    expect(view()).toMatchObject({ acknowledged: true, canPay: true });
    send({ type: 'crypto.acknowledge', value: false });
    expect(view().canPay).toBe(false);
    send({ type: 'crypto.acknowledge', value: true });
    send({ type: 'crypto.submit' });
    expect(view()).toMatchObject({
      busy: true,
      status: 'Opening the payment page…',
      canPay: false,
      canBack: false,
    });
    send({ type: 'crypto.acknowledge', value: false });
    expect(view().acknowledged).toBe(true);
    open(charge('open'));
    await waitFor(actor, (s) => s.status === 'done');
    expect(view().panel).toBe('done');
    expect(calls).toHaveLength(1);
  });

  it('hands the panel prop getters: the terms acknowledge, the form’s submit pays, Back goes back', async () => {
    const { actor, view } = start(SCENARIOS.blueprint, () => new Promise<CoinbaseChargeJson>(() => {}));
    expect(view().getPayButtonProps()).toEqual({ type: 'submit', disabled: true, 'data-state': 'disabled' });
    expect(view().getTermsProps()).toMatchObject({
      checked: false,
      disabled: false,
      'data-state': 'unchecked',
    });
    view().getTermsProps().onChange(true);
    expect(view().getTermsProps()['data-state']).toBe('checked');
    expect(view().getPayButtonProps()).toEqual({ type: 'submit', disabled: false, 'data-state': 'idle' });
    let prevented = false;
    view()
      .getFormProps()
      .onSubmit({ preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    expect(view().getPayButtonProps()).toEqual({
      type: 'submit',
      disabled: true,
      'aria-busy': true,
      'data-state': 'busy',
    });
    expect(view().getBackButtonProps()).toMatchObject({ disabled: true, 'data-state': 'disabled' });
    expect(actor.getSnapshot().value).toBe('creating');
  });

  it('Back from the review ends the rail with back', () => {
    const { actor, view } = start(SCENARIOS.blueprint, () => new Promise<CoinbaseChargeJson>(() => {}));
    view().getBackButtonProps().onClick!();
    expect(actor.getSnapshot().output).toEqual({ type: 'back' });
  });

  it('retries an attempt that failed on the network with the same key, never opening two charges', async () => {
    const { calls, send, view, pay, keys, actor } = start(SCENARIOS.blueprint, (n) =>
      n === 1 ? fail(NETWORK_ERROR)() : Promise.resolve(charge('open')),
    );
    send({ type: 'crypto.acknowledge', value: true });
    await pay();
    expect(view().error).toBe(NETWORK_ERROR.body.message);
    expect(view().canPay).toBe(true);
    await pay();
    expect(keys()).toEqual(['key-1', 'key-1']);
    expect(calls[1]).toEqual(calls[0]);
    expect(actor.getSnapshot().output).toMatchObject({ type: 'redirect', url: HOSTED_URL });
  });

  it('starts a new attempt after any other failure, and when the acknowledgement changes', async () => {
    const answers = [
      fail(CHARGE_PENDING_ERROR),
      fail(SOLD_OUT_ERROR),
      async () => charge('noHostedPage'),
      fail(NETWORK_ERROR),
      fail(PROVIDER_ERROR),
    ];
    const { send, view, pay, keys } = start(SCENARIOS.blueprint, (n) => answers[n - 1]!());
    send({ type: 'crypto.acknowledge', value: true });
    await pay();
    expect(view().error).toBe('You have a payment waiting to be completed. Resume or cancel it first.');
    await pay();
    expect(view().error).toBe(SOLD_OUT_ERROR.body.message);
    await pay();
    expect(view().error).toBe(
      'We could not start the crypto payment. You were not charged; please try again.',
    );
    await pay();
    expect(view().error).toBe(NETWORK_ERROR.body.message);
    // The network failure's attempt ends once the buyer changes the acknowledgement.
    send({ type: 'crypto.acknowledge', value: false });
    send({ type: 'crypto.acknowledge', value: true });
    await pay();
    expect(view().error).toBe(
      'We could not contact the crypto processor. You were not charged; please try again.',
    );
    expect(keys()).toEqual(['key-1', 'key-2', 'key-3', 'key-4', 'key-5']);
    expect(view().canPay).toBe(true);
  });

  it('keeps the CHARGE_PENDING body (the open charge’s id) for the checkout', async () => {
    const { actor, send, pay } = start(SCENARIOS.blueprint, fail(CHARGE_PENDING_ERROR));
    send({ type: 'crypto.acknowledge', value: true });
    await pay();
    expect(actor.getSnapshot().context.error).toMatchObject({
      code: 'CHARGE_PENDING',
      chargeId: OTHER_CHARGE_ID,
    });
    expect(actor.getSnapshot().context.attempt).toBeNull();
  });

  it('ends with back, having opened nothing', async () => {
    const { actor, calls, send } = start(SCENARIOS.blueprint, async () => charge('open'));
    send({ type: 'crypto.acknowledge', value: true });
    send({ type: 'crypto.back' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ type: 'back' });
    expect(calls).toEqual([]);
  });

  it('makes a key the server accepts for each attempt by default', async () => {
    const calls: CryptoChargeRequest[] = [];
    const actor = createActor(
      cryptoPaymentMachine.provide({
        actors: {
          createCharge: fromPromise<CoinbaseChargeJson, CryptoChargeRequest>(async ({ input }) => {
            calls.push(input);
            throw SOLD_OUT_ERROR;
          }),
        },
      }),
      { input: SCENARIOS.blueprint },
    ).start();
    actor.send({ type: 'crypto.acknowledge', value: true });
    for (const _ of [1, 2]) {
      actor.send({ type: 'crypto.submit' });
      await waitFor(actor, (s) => !s.hasTag('busy'));
    }
    const keys = calls.map((c) => c.idempotencyKey);
    for (const key of keys) expect(key).toMatch(/^[\w-]{8,64}$/);
    expect(new Set(keys).size).toBe(2);
  });
});

describe('the crypto service over the API', () => {
  /** A fetch that answers by URL and records every request. */
  function fakeFetch(answer: (url: string, request: Request) => Response) {
    const requests: { url: string; method: string; body: unknown }[] = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const text = request.method === 'GET' ? '' : await request.clone().text();
      requests.push({ url: request.url, method: request.method, body: text ? JSON.parse(text) : null });
      return answer(request.url, request);
    };
    return { fetch: fetch as typeof globalThis.fetch, requests };
  }
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  async function service(answer: (url: string, request: Request) => Response) {
    const { createApi } = await import('../src/services/api');
    const { cryptoService, cryptoActors } = await import('../src/services/crypto');
    const { fetch, requests } = fakeFetch(answer);
    const api = createApi({
      baseUrl: 'http://app.test/api',
      getToken: () => 'session',
      onUnauthorized: () => {},
      fetch,
    });
    return { crypto: cryptoService(api), actors: cryptoActors(api), requests };
  }

  it('posts a direct purchase of a blueprint or a pack at the price seen, with the attempt’s key', async () => {
    const { crypto, requests } = await service(() => json(charge('open'), 201));
    // Dates come back revived.
    expect(await crypto.createDirectPurchase({ item: ITEM, price: PRICE, idempotencyKey: 'key-1' })).toEqual({
      ...charge('open'),
      createdAt: new Date('2026-11-22T10:00:00.000Z'),
      expiresAt: new Date('2026-11-22T11:00:00.000Z'),
      order: { ...charge('open').order, createdAt: new Date('2026-11-22T10:00:00.000Z') },
    });
    await crypto.createDirectPurchase({ item: PACK, price: 4000, idempotencyKey: 'key-2' });
    expect(requests).toEqual([
      {
        method: 'POST',
        url: 'http://app.test/api/coinbase-charges',
        body: { type: 'directPurchase', blueprintId: ITEM.id, expectedPrice: PRICE, idempotencyKey: 'key-1' },
      },
      {
        method: 'POST',
        url: 'http://app.test/api/coinbase-charges',
        body: {
          type: 'directPurchase',
          blueprintPackId: PACK.id,
          expectedPrice: 4000,
          idempotencyKey: 'key-2',
        },
      },
    ]);
  });

  it('reads a 502 as CRYPTO_PROVIDER (nothing was opened), not as a network failure to retry', async () => {
    const { crypto } = await service(() => json({ code: 'CREATE_COINBASE_CHARGE', message: '' }, 502));
    const error = await crypto
      .createDirectPurchase({ item: ITEM, price: PRICE, idempotencyKey: 'key-1' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, body: { code: 'CRYPTO_PROVIDER' } });
    const refused = await service(() => json(SOLD_OUT_ERROR.body, 409));
    await expect(
      refused.crypto.createDirectPurchase({ item: ITEM, price: PRICE, idempotencyKey: 'key-1' }),
    ).rejects.toMatchObject({ status: 409, body: { code: 'SOLD_OUT' } });
  });

  it('reads, cancels and syncs a charge, and lists the user’s open charges', async () => {
    const canceled = { ...charge('open'), status: 'CANCELED' as const, hostedUrl: null, unresolved: false };
    const { crypto, requests } = await service((url, request) => {
      if (url.includes('?')) return json({ results: [charge('open'), canceled] });
      return json(request.method === 'PATCH' ? canceled : charge('open'));
    });
    expect(await crypto.getCharge(CHARGE_ID)).toMatchObject({ id: CHARGE_ID, hostedUrl: HOSTED_URL });
    expect(await crypto.cancelCharge(CHARGE_ID)).toMatchObject({ status: 'CANCELED', hostedUrl: null });
    await crypto.syncCharge(CHARGE_ID);
    const open = await crypto.openCharges('u-1');
    expect(open.map((c) => [c.id, c.status])).toEqual([[CHARGE_ID, 'NEW']]);
    expect(requests).toEqual([
      { method: 'GET', url: `http://app.test/api/coinbase-charges/${CHARGE_ID}`, body: null },
      {
        method: 'PATCH',
        url: `http://app.test/api/coinbase-charges/${CHARGE_ID}`,
        body: { status: 'CANCELED' },
      },
      { method: 'PATCH', url: `http://app.test/api/coinbase-charges/${CHARGE_ID}`, body: {} },
      {
        method: 'GET',
        url: 'http://app.test/api/coinbase-charges?userId=u-1&statuses=NEW%2CUNRESOLVED',
        body: null,
      },
    ]);
  });

  it('gives the machine its createCharge actor', async () => {
    const { actors, requests } = await service(() => json(charge('open'), 201));
    const actor = createActor(cryptoPaymentMachine.provide({ actors }), {
      input: SCENARIOS.blueprint,
    }).start();
    actor.send({ type: 'crypto.acknowledge', value: true });
    actor.send({ type: 'crypto.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output).toMatchObject({ type: 'redirect', url: HOSTED_URL });
    expect(requests).toEqual([
      {
        method: 'POST',
        url: 'http://app.test/api/coinbase-charges',
        body: {
          type: 'directPurchase',
          blueprintId: ITEM.id,
          expectedPrice: PRICE,
          idempotencyKey: expect.stringMatching(/^[\w-]{36}$/),
        },
      },
    ]);
  });
});
