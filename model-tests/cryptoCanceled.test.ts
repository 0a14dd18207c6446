import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { CoinbaseChargeJson } from '#domain/schemas/crypto';
import { connectCryptoCanceled, cryptoCanceledMachine } from '../machines/cryptoCanceled';
import { ITEM, NETWORK_ERROR } from './cardPayment.model';
import { flushCoverage } from './coverage-store';
import { CRYPTO_CHARGE_ID, cryptoCanceledModel, cryptoCharge } from './cryptoCanceled.model';
import { generatePaths, runPath } from './harness';

describe('cryptoCanceled machine paths', () => {
  const paths = generatePaths(cryptoCanceledModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
  for (const path of paths) it(path.description, () => runPath(cryptoCanceledModel, path));
  afterAll(() => flushCoverage('machine'));
});

type Answer = (n: number) => Promise<CoinbaseChargeJson>;

function start(answers: { sync?: Answer; load?: Answer }) {
  const calls = { syncs: [] as string[], loads: [] as string[] };
  const actor = createActor(
    cryptoCanceledMachine.provide({
      actors: {
        syncCharge: fromPromise<CoinbaseChargeJson, { id: string }>(async ({ input }) => {
          calls.syncs.push(input.id);
          return (answers.sync ?? (async () => cryptoCharge('canceled')))(calls.syncs.length);
        }),
        loadCharge: fromPromise<CoinbaseChargeJson, { id: string }>(async ({ input }) => {
          calls.loads.push(input.id);
          return (answers.load ?? (async () => cryptoCharge('canceled')))(calls.loads.length);
        }),
      },
    }),
    { input: { chargeId: CRYPTO_CHARGE_ID } },
  ).start();
  const send = actor.send.bind(actor);
  const view = () => connectCryptoCanceled(actor.getSnapshot(), send);
  const settled = () => waitFor(actor, (s) => !s.hasTag('busy'));
  return { actor, calls, view, send, settled };
}

const time = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

describe('the crypto-canceled page', () => {
  it('applies the cancel with the provider at once, and says nothing was charged', async () => {
    const { calls, view, settled } = start({});
    expect(view()).toMatchObject({ panel: 'loading', busy: true, reason: 'Checking your payment…' });
    await settled();
    expect(calls.syncs).toEqual([CRYPTO_CHARGE_ID]);
    expect(calls.loads).toEqual([]);
    const shown = view();
    expect(shown).toMatchObject({
      panel: 'charge',
      busy: false,
      title: 'Purchase canceled',
      reason: 'Your crypto purchase was canceled. You were not charged.',
      itemTitle: ITEM.title,
      itemId: ITEM.id,
      amount: '$25',
      paid: null,
      canRetry: false,
    });
    expect(shown.timeline).toEqual([
      {
        label: 'Order placed',
        detail: null,
        time: time('2026-11-22T10:00:00.000Z'),
        dateTime: '2026-11-22T10:00:00.000Z',
      },
      {
        label: 'Order canceled',
        detail: 'Your crypto purchase was canceled.',
        time: time('2026-11-22T10:06:00.000Z'),
        dateTime: '2026-11-22T10:06:00.000Z',
      },
    ]);
  });

  it('says a partial payment goes back as FUSD', async () => {
    const { view, settled } = start({ sync: async () => cryptoCharge('partlyPaid') });
    await settled();
    const shown = view();
    expect(shown).toMatchObject({
      title: 'Purchase canceled',
      reason: 'Your crypto purchase was canceled. What you paid is refunded as FUSD to your wallet.',
      amount: '$25',
      paid: '$10',
    });
    expect(shown.timeline.map((e) => e.label)).toEqual(['Order placed', 'Paid in part', 'Order canceled']);
  });

  it('says so when the charge was paid after all, or is still open', async () => {
    const paid = start({ sync: async () => cryptoCharge('paid') });
    await paid.settled();
    expect(paid.view()).toMatchObject({
      title: 'Payment received',
      reason: 'This purchase was paid after all. The collectible is on its way to your wallet.',
      itemId: ITEM.id,
    });
    const open = start({ sync: async () => cryptoCharge('open') });
    await open.settled();
    expect(open.view()).toMatchObject({
      title: 'Payment not completed',
      reason: 'Your crypto payment is still open. You can pay it from the item page, or let it expire.',
    });
  });

  it('shows a top-up by its amount, without an item or a timeline', async () => {
    const { view, settled } = start({ sync: async () => cryptoCharge('topup') });
    await settled();
    expect(view()).toMatchObject({
      title: 'Purchase canceled',
      itemTitle: 'FUSD top-up',
      itemId: null,
      amount: '$25',
      timeline: [],
    });
  });

  it('shows the charge as known when the provider cannot be asked', async () => {
    const { calls, view, settled } = start({
      sync: async () => {
        throw { status: 502, body: { code: 'CRYPTO_PROVIDER', message: '' } };
      },
    });
    await settled();
    expect(calls.syncs).toEqual([CRYPTO_CHARGE_ID]);
    expect(calls.loads).toEqual([CRYPTO_CHARGE_ID]);
    expect(view()).toMatchObject({ panel: 'charge', title: 'Purchase canceled' });
  });

  it('says an unknown or foreign charge is not found, with no retry', async () => {
    const notFound = async () => {
      throw { status: 404, body: { code: 'not_found', message: '' } };
    };
    const { view, settled } = start({ sync: notFound, load: notFound });
    await settled();
    expect(view()).toMatchObject({
      panel: 'error',
      title: 'Charge not found',
      reason:
        "We couldn't find this charge. It may have been made with another account: sign in with that account to see it.",
      canRetry: false,
      itemId: null,
    });
  });

  it('retries the sync after a failure', async () => {
    const { calls, view, settled } = start({
      sync: async (n) => {
        if (n === 1) throw NETWORK_ERROR;
        return cryptoCharge('canceled');
      },
      load: async () => {
        throw NETWORK_ERROR;
      },
    });
    await settled();
    expect(view()).toMatchObject({
      panel: 'error',
      title: 'Purchase canceled',
      reason: `We could not load this charge. ${NETWORK_ERROR.body.message}`,
      canRetry: true,
    });
    view().retry();
    expect(view().panel).toBe('loading');
    await settled();
    expect(calls.syncs).toHaveLength(2);
    expect(view()).toMatchObject({ panel: 'charge', title: 'Purchase canceled', canRetry: false });
  });
});
