import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { CardChargeJson, OrderJson } from '#domain/schemas/checkout';
import { type ChargeSync, checkoutFailedMachine, connectCheckoutFailed } from '../machines/checkoutFailed';
import { CHARGE_ID, charge, ITEM, NETWORK_ERROR, ORDER_ID } from './cardPayment.model';
import { checkoutFailedModel, order, SESSION_ID } from './checkoutFailed.model';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';

describe('checkoutFailed machine paths', () => {
  const paths = generatePaths(checkoutFailedModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
  for (const path of paths) it(path.description, () => runPath(checkoutFailedModel, path));
  afterAll(() => flushCoverage('machine'));
});

function start(
  ckoSessionId: string | null,
  answers: { find?: () => Promise<CardChargeJson | null>; load?: (n: number) => Promise<OrderJson> },
) {
  const calls = { finds: [] as string[], syncs: [] as ChargeSync[], loads: 0 };
  const actor = createActor(
    checkoutFailedMachine.provide({
      actors: {
        findCharge: fromPromise<CardChargeJson | null, { orderId: string }>(async ({ input }) => {
          calls.finds.push(input.orderId);
          return (answers.find ?? (async () => charge('challenge')))();
        }),
        syncCharge: fromPromise<CardChargeJson, ChargeSync>(async ({ input }) => {
          calls.syncs.push(input);
          return charge('declined');
        }),
        loadOrder: fromPromise<OrderJson, { id: string }>(async () => {
          calls.loads++;
          return (answers.load ?? (async () => order('declined')))(calls.loads);
        }),
      },
    }),
    { input: { orderId: ORDER_ID, ckoSessionId } },
  ).start();
  const send = actor.send.bind(actor);
  const view = () => connectCheckoutFailed(actor.getSnapshot(), send);
  const settled = () => waitFor(actor, (s) => !s.hasTag('busy'));
  return { actor, calls, view, send, settled };
}

describe('the failed-checkout page', () => {
  it('back from 3-D Secure, syncs the order’s waiting charge once with the session, then shows the order', async () => {
    const { calls, view, settled } = start(SESSION_ID, {});
    expect(view().panel).toBe('loading');
    await settled();
    expect(calls.finds).toEqual([ORDER_ID]);
    expect(calls.syncs).toEqual([{ id: CHARGE_ID, ckoSessionId: SESSION_ID }]);
    expect(calls.loads).toBe(1);
    const shown = view();
    expect(shown).toMatchObject({
      panel: 'order',
      title: 'Purchase Failed',
      reason: 'Your card was not charged.',
      itemTitle: ITEM.title,
      itemId: ITEM.id,
      amount: '$25',
      canRetry: false,
    });
    const time = (iso: string) =>
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
    expect(shown.timeline).toEqual([
      {
        label: 'Order placed',
        detail: null,
        time: time('2026-11-22T10:00:00.000Z'),
        dateTime: '2026-11-22T10:00:00.000Z',
      },
      {
        label: 'Payment declined',
        detail: '20005 Do Not Honour',
        time: time('2026-11-22T10:01:30.000Z'),
        dateTime: '2026-11-22T10:01:30.000Z',
      },
    ]);
  });

  it('offers to add funds with crypto after insufficient funds, and not after other declines', async () => {
    const poor = start(null, {
      load: async () => ({
        ...order('declined'),
        failure: { code: 'CARD_INSUFFICIENT_FUNDS', message: 'Insufficient funds.' },
      }),
    });
    await poor.settled();
    expect(poor.view()).toMatchObject({ panel: 'order', offerTopUp: true });
    const declined = start(null, {});
    await declined.settled();
    expect(declined.view()).toMatchObject({ panel: 'order', offerTopUp: false });
  });

  it('syncs nothing without a session or once the charge is settled', async () => {
    const plain = start(null, {});
    await plain.settled();
    expect(plain.calls.finds).toEqual([]);
    expect(plain.calls.syncs).toEqual([]);
    const settled = start(SESSION_ID, { find: async () => null });
    await settled.settled();
    expect(settled.calls.syncs).toEqual([]);
    expect(settled.view().panel).toBe('order');
  });

  it('says an unknown or foreign order is not found, and retries other failures', async () => {
    const missing = start(null, {
      load: async () => {
        throw { status: 404, body: { code: 'not_found', message: '' } };
      },
    });
    await missing.settled();
    expect(missing.view()).toMatchObject({ panel: 'error', title: 'Order not found', canRetry: false });
    const offline = start(null, {
      load: async (n) => {
        if (n === 1) throw NETWORK_ERROR;
        return order('declined');
      },
    });
    await offline.settled();
    expect(offline.view()).toMatchObject({
      panel: 'error',
      reason: `We could not load this order. ${NETWORK_ERROR.body.message}`,
      canRetry: true,
    });
    offline.view().retry();
    await offline.settled();
    expect(offline.view().panel).toBe('order');
  });

  it('tells an order that is still waiting, or was paid after all', async () => {
    const waiting = start(null, { load: async () => order('created') });
    await waiting.settled();
    expect(waiting.view().title).toBe('Payment not completed');
    const paid = start(null, { load: async () => order('authorized') });
    await paid.settled();
    expect(paid.view().title).toBe('Payment received');
  });
});
