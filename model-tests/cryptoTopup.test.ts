import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type AnyActorLogic,
  assign,
  createActor,
  fromPromise,
  SimulatedClock,
  toPromise,
  waitFor,
} from 'xstate';
import { type CoinbaseChargeJson, CreateCoinbaseChargeBody } from '#domain/schemas/crypto';
import {
  addedMessage,
  type CryptoTopupInput,
  connectCryptoTopup,
  cryptoTopupMachine,
  TOPUP_AMOUNT_ERRORS,
  TOPUP_HINT,
  TOPUP_MESSAGES,
  type TopupRequest,
  topupAmount,
  topupChargeBody,
  topupTimings,
} from '../machines/cryptoTopup';
import { flushCoverage } from './coverage-store';
import {
  AMOUNT,
  CHARGE_ID,
  CHARGE_PENDING_ERROR,
  cryptoTopupModel,
  HOSTED_URL,
  NETWORK_ERROR,
  OTHER_CHARGE_ID,
  PROVIDER_ERROR,
  SCENARIOS,
  topupCharge,
} from './cryptoTopup.model';
import { flush, generatePaths, runPath } from './harness';

describe('cryptoTopup machine paths', () => {
  const paths = generatePaths(cryptoTopupModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(20));
  for (const path of paths) it(path.description, () => runPath(cryptoTopupModel, path));
  afterAll(() => flushCoverage('machine'));
});

type Answer<T> = (call: number) => Promise<T>;
const fail = (error: unknown) => async (): Promise<never> => {
  throw error;
};

/** The real machine with scripted answers and numbered keys (key-1, key-2, …); requests and redirects are recorded. */
function start(
  input: CryptoTopupInput,
  answers: { create?: Answer<CoinbaseChargeJson>; read?: Answer<CoinbaseChargeJson> } = {},
) {
  const requests: TopupRequest[] = [];
  const reads: string[] = [];
  /** When each read started, on the simulated clock. */
  const readAt: number[] = [];
  const redirects: string[] = [];
  const added: CoinbaseChargeJson[] = [];
  const clock = new SimulatedClock();
  let keys = 0;
  const actor = createActor(
    cryptoTopupMachine.provide({
      actors: {
        createTopup: fromPromise<CoinbaseChargeJson, TopupRequest>(async ({ input }) => {
          requests.push(input);
          return (answers.create ?? (async () => topupCharge('NEW')))(requests.length);
        }),
        getCharge: fromPromise<CoinbaseChargeJson, { id: string }>(async ({ input }) => {
          reads.push(input.id);
          readAt.push(clock.now());
          return (answers.read ?? (async () => topupCharge('PENDING')))(reads.length);
        }),
      },
      actions: {
        newKey: assign({ attempt: () => ({ key: `key-${++keys}` }) }),
        redirectTo: (_, { url }) => void redirects.push(url),
        announceAdded: (_, charge) => void added.push(charge),
      },
    }),
    { input, clock },
  ).start();
  const send = actor.send.bind(actor);
  const view = () => connectCryptoTopup(actor.getSnapshot(), send);
  const submit = async (amount?: string) => {
    if (amount !== undefined) send({ type: 'topup.amount', value: amount });
    send({ type: 'topup.submit' });
    await waitFor(actor, (s) => !s.matches('creating'));
  };
  /** Lets `ticks` poll intervals pass, settling each read as it comes. */
  const tick = async (ticks: number) => {
    for (let i = 0; i < ticks; i++) {
      clock.increment(topupTimings.pollMs);
      await flush();
    }
  };
  return {
    actor,
    clock,
    requests,
    reads,
    readAt,
    redirects,
    added,
    send,
    view,
    submit,
    tick,
    keys: () => requests.map((r) => r.idempotencyKey),
  };
}

describe('the top-up amount', () => {
  it('reads dollars with at most two decimals, from $1 to $10,000', () => {
    expect(topupAmount('25')).toEqual({ ok: true, cents: 2500 });
    expect(topupAmount('12.50')).toEqual({ ok: true, cents: 1250 });
    expect(topupAmount(' $1,250.9 ')).toEqual({ ok: true, cents: 125_090 });
    expect(topupAmount('1')).toEqual({ ok: true, cents: 100 });
    expect(topupAmount('10000')).toEqual({ ok: true, cents: 1_000_000 });
    expect(topupAmount('10,000.00')).toEqual({ ok: true, cents: 1_000_000 });
    for (const text of ['', '   ', 'abc', '12.505', '-5', '1e3', '.', '$'])
      expect(topupAmount(text), text).toEqual({ ok: false, error: 'invalid' });
    for (const text of ['0', '0.99', '.5'])
      expect(topupAmount(text), text).toEqual({ ok: false, error: 'min' });
    for (const text of ['10000.01', '10001', '1,000,000'])
      expect(topupAmount(text), text).toEqual({ ok: false, error: 'max' });
  });

  it('shows the field error of each refused amount on Continue, and clears it on a change', async () => {
    const { actor, requests, send, view } = start(SCENARIOS.fresh);
    expect(view()).toMatchObject({
      panel: 'form',
      title: 'Add funds with crypto',
      amountLabel: 'Amount (USD)',
      amount: '',
      amountError: null,
      hint: 'From $1 to $10,000, paid in ETH, BTC, BCH or USDC on the payment page.',
      canEdit: true,
      canSubmit: true,
      submitLabel: 'Continue to payment',
      busy: false,
      status: null,
      message: null,
      error: null,
      canAgain: false,
    });
    expect(view().hint).toBe(TOPUP_HINT);
    const cases: Array<[string, string]> = [
      ['', 'Enter an amount in dollars.'],
      ['abc', 'Enter an amount in dollars.'],
      ['12.505', 'Enter an amount in dollars.'],
      ['0.99', 'Top up at least $1.'],
      ['10000.01', 'Top up at most $10,000.'],
    ];
    for (const [amount, message] of cases) {
      send({ type: 'topup.amount', value: amount });
      expect(view().amountError).toBeNull();
      send({ type: 'topup.submit' });
      expect(actor.getSnapshot().value).toBe('editing');
      expect(view().amountError, amount).toBe(message);
    }
    expect(Object.values(TOPUP_AMOUNT_ERRORS)).toEqual([
      'Enter an amount in dollars.',
      'Top up at least $1.',
      'Top up at most $10,000.',
    ]);
    expect(requests).toEqual([]);
  });
});

describe('opening a top-up', () => {
  it('opens a charge for the amount in cents with the attempt’s key and ends on its hosted page', async () => {
    const { actor, requests, redirects, view, send } = start(SCENARIOS.fresh);
    send({ type: 'topup.amount', value: '12.50' });
    send({ type: 'topup.submit' });
    expect(view()).toMatchObject({
      panel: 'form',
      busy: true,
      canEdit: false,
      canSubmit: false,
      status: 'Opening the payment page…',
    });
    send({ type: 'topup.amount', value: '99' });
    expect(view().amount).toBe('12.50');
    await waitFor(actor, (s) => s.status === 'done');
    expect(requests).toEqual([{ amount: 1250, idempotencyKey: 'key-1' }]);
    expect(redirects).toEqual([HOSTED_URL]);
    expect(actor.getSnapshot().output).toEqual({ url: HOSTED_URL });
    expect(view()).toMatchObject({ panel: 'redirecting', busy: true, status: 'Opening the payment page…' });
  });

  it('retries an attempt that failed on the network with the same key, never opening two charges', async () => {
    const { actor, requests, view, submit, keys } = start(SCENARIOS.fresh, {
      create: (n) => (n === 1 ? fail(NETWORK_ERROR)() : Promise.resolve(topupCharge('NEW'))),
    });
    await submit('25');
    expect(view().error).toBe(NETWORK_ERROR.body.message);
    expect(actor.getSnapshot().context.attempt).toEqual({ key: 'key-1' });
    await submit();
    expect(keys()).toEqual(['key-1', 'key-1']);
    expect(requests[1]).toEqual(requests[0]);
    expect(actor.getSnapshot().output).toEqual({ url: HOSTED_URL });
  });

  it('starts a new attempt after any other failure, and when the amount changes', async () => {
    const answers = [
      fail(CHARGE_PENDING_ERROR),
      async () => topupCharge('NEW', { hostedUrl: null }),
      fail(PROVIDER_ERROR),
      fail(NETWORK_ERROR),
      fail(NETWORK_ERROR),
    ];
    const { actor, send, view, submit, keys, requests } = start(SCENARIOS.fresh, {
      create: (n) => answers[n - 1]!(),
    });
    await submit('25');
    expect(view().error).toBe('You have a crypto payment open. Finish or cancel it first.');
    expect(view().error).toBe(TOPUP_MESSAGES.chargePending);
    await submit();
    expect(view().error).toBe(
      'We could not start the crypto payment. You were not charged; please try again.',
    );
    expect(actor.getSnapshot().context.error?.code).toBe('CREATE_COINBASE_CHARGE');
    await submit();
    expect(view().error).toBe(
      'We could not contact the crypto processor. You were not charged; please try again.',
    );
    await submit();
    expect(view().error).toBe(NETWORK_ERROR.body.message);
    // The network failure's attempt ends once the amount changes (and its message with it).
    send({ type: 'topup.amount', value: '30' });
    expect(view().error).toBeNull();
    expect(actor.getSnapshot().context.attempt).toBeNull();
    await submit();
    expect(keys()).toEqual(['key-1', 'key-2', 'key-3', 'key-4', 'key-5']);
    expect(requests.map((r) => r.amount)).toEqual([2500, 2500, 2500, 2500, 3000]);
    expect(view()).toMatchObject({ canSubmit: true, canEdit: true });
  });

  it('keeps the key when the field is set to the text it shows', async () => {
    const { actor, send, submit, keys } = start(SCENARIOS.fresh, {
      create: (n) => (n === 1 ? fail(NETWORK_ERROR)() : fail(PROVIDER_ERROR)()),
    });
    await submit('25');
    send({ type: 'topup.amount', value: '25' });
    expect(actor.getSnapshot().context.attempt).toEqual({ key: 'key-1' });
    await submit();
    expect(keys()).toEqual(['key-1', 'key-1']);
  });

  it('keeps the CHARGE_PENDING body (the open charge’s id)', async () => {
    const { actor, submit } = start(SCENARIOS.fresh, { create: fail(CHARGE_PENDING_ERROR) });
    await submit('25');
    expect(actor.getSnapshot().context.error).toMatchObject({
      code: 'CHARGE_PENDING',
      chargeId: OTHER_CHARGE_ID,
    });
  });

  it('makes a key the server accepts for each attempt by default, and a body its schema accepts', async () => {
    const requests: TopupRequest[] = [];
    const actor = createActor(
      cryptoTopupMachine.provide({
        actors: {
          createTopup: fromPromise<CoinbaseChargeJson, TopupRequest>(async ({ input }) => {
            requests.push(input);
            throw PROVIDER_ERROR;
          }),
        },
      }),
      { input: SCENARIOS.fresh },
    ).start();
    for (const amount of ['1', '10000']) {
      actor.send({ type: 'topup.amount', value: amount });
      actor.send({ type: 'topup.submit' });
      await waitFor(actor, (s) => !s.hasTag('busy'));
    }
    const keys = requests.map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(2);
    for (const request of requests) {
      const body = topupChargeBody(request);
      expect(v.safeParse(CreateCoinbaseChargeBody, body).success, JSON.stringify(body)).toBe(true);
    }
    expect(topupChargeBody(requests[0]!)).toEqual({
      type: 'topup',
      topupAmount: 100,
      idempotencyKey: keys[0],
    });
    expect(requests[1]!.amount).toBe(1_000_000);
  });

  it('names the actors the runtime must provide', async () => {
    const actors = cryptoTopupMachine.implementations.actors as Record<string, AnyActorLogic>;
    expect(Object.keys(actors).sort()).toEqual(['createTopup', 'getCharge']);
    for (const [name, logic] of Object.entries(actors)) {
      const actor = createActor(logic, { input: { id: CHARGE_ID, amount: 2500, idempotencyKey: 'key-1' } });
      actor.start();
      await expect(toPromise(actor)).rejects.toThrow(`${name} not provided`);
    }
  });
});

describe('back from the payment page', () => {
  it('reads the charge at once and shows the FUSD added, announcing it for the balance', async () => {
    const { actor, reads, added, view } = start(SCENARIOS.returned, {
      read: async () => topupCharge('SEND_FUSD_SUCCEEDED', { amount: 1250 }),
    });
    expect(view()).toMatchObject({
      panel: 'checking',
      busy: true,
      status: 'Checking your top-up…',
      canAgain: false,
      canSubmit: false,
    });
    await waitFor(actor, (s) => s.matches('added'));
    expect(reads).toEqual([CHARGE_ID]);
    expect(added).toEqual([topupCharge('SEND_FUSD_SUCCEEDED', { amount: 1250 })]);
    expect(view()).toMatchObject({
      panel: 'added',
      busy: false,
      status: null,
      message: 'Added $12.50 to your balance.',
      canAgain: true,
      againLabel: 'Add more funds',
    });
    expect(view().message).toBe(addedMessage(1250));
  });

  it('polls every 2 s while the payment is on its way, then ends in each outcome', async () => {
    const outcomes = [
      ['SEND_FUSD_SUCCEEDED', 'added', 'Added $25 to your balance.'],
      [
        'SEND_FUSD_FAILED',
        'failed',
        'We received your payment but could not send the FUSD to your wallet. Our team has been notified.',
      ],
      ['EXPIRED', 'ended', 'The top-up was not paid.'],
      ['CANCELED', 'ended', 'The top-up was not paid.'],
    ] as const;
    for (const [status, panel, message] of outcomes) {
      const waiting = ['NEW', 'PENDING', 'COMPLETED', 'UNRESOLVED', 'RESOLVED'] as const;
      const { actor, reads, readAt, added, tick, view } = start(SCENARIOS.returned, {
        read: async (n) => topupCharge(n <= waiting.length ? waiting[n - 1]! : status),
      });
      await flush();
      expect(reads).toHaveLength(1);
      await tick(waiting.length);
      expect(reads).toHaveLength(waiting.length + 1);
      expect(readAt).toEqual([0, 2000, 4000, 6000, 8000, 10_000]);
      expect(actor.getSnapshot().value).toBe(panel);
      expect(view()).toMatchObject({ panel, message, canAgain: true, busy: false });
      expect(added).toHaveLength(status === 'SEND_FUSD_SUCCEEDED' ? 1 : 0);
      // Nothing is read any more.
      await tick(3);
      expect(reads).toHaveLength(waiting.length + 1);
    }
  });

  it('reads again on the next tick after a failed read, counting it', async () => {
    const { actor, reads, tick } = start(SCENARIOS.returned, {
      read: (n) => (n < 3 ? fail(NETWORK_ERROR)() : Promise.resolve(topupCharge('SEND_FUSD_SUCCEEDED'))),
    });
    await flush();
    expect(actor.getSnapshot().matches('checking')).toBe(true);
    expect(actor.getSnapshot().context.polls).toBe(1);
    await tick(2);
    expect(reads).toHaveLength(3);
    expect(actor.getSnapshot().value).toBe('added');
  });

  it('gives up after 50 reads, 2 s apart, saying the payment is still being confirmed', async () => {
    const { actor, reads, readAt, clock, tick, view } = start(SCENARIOS.returned, {
      read: (n) => (n % 7 === 0 ? fail(NETWORK_ERROR)() : Promise.resolve(topupCharge('PENDING'))),
    });
    await flush();
    await tick(48);
    expect(reads).toHaveLength(49);
    expect(view().panel).toBe('checking');
    // The network has seen the payment (PENDING) and not confirmed it: the page says it waits.
    expect(view().status).toBe('Waiting for the network to confirm your payment.');
    await tick(1);
    expect(reads).toHaveLength(50);
    expect(readAt).toEqual(Array.from({ length: 50 }, (_, i) => i * topupTimings.pollMs));
    expect(clock.now()).toBe(49 * topupTimings.pollMs);
    expect(actor.getSnapshot().value).toBe('slow');
    expect(view()).toMatchObject({
      panel: 'slow',
      busy: false,
      status: null,
      message:
        'Your payment is still being confirmed. The FUSD arrives in your wallet once it is; check back in a few minutes.',
      canAgain: true,
    });
    await tick(5);
    expect(reads).toHaveLength(50);
    expect(topupTimings).toEqual({ pollMs: 2000, maxPolls: 50 });
  });

  it('starts a fresh top-up with Add more funds', async () => {
    const { actor, send, view, submit, requests } = start(SCENARIOS.returned, {
      read: async () => topupCharge('EXPIRED'),
    });
    await waitFor(actor, (s) => s.matches('ended'));
    send({ type: 'topup.again' });
    expect(view()).toMatchObject({
      panel: 'form',
      amount: '',
      amountError: null,
      error: null,
      message: null,
      canAgain: false,
      canSubmit: true,
    });
    expect(actor.getSnapshot().context).toMatchObject({ polls: 0, charge: null, attempt: null });
    await submit('40');
    expect(requests).toEqual([{ amount: 4000, idempotencyKey: 'key-1' }]);
    expect(actor.getSnapshot().output).toEqual({ url: HOSTED_URL });
  });

  it('uses the amount of the charge read', () => {
    expect(topupCharge('SEND_FUSD_SUCCEEDED').amount).toBe(AMOUNT);
  });
});
