import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { PayoutsPage } from '#domain/sales';
import { payoutAmount, payoutMachine } from '../machines/payout';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { LIST_FUNDS, LIST_OPEN, OPEN_ID, payoutModel } from './payout.model';

describe('payout machine paths', () => {
  const paths = generatePaths(payoutModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(10));
  for (const path of paths) it(path.description, () => runPath(payoutModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('payout amount (the server’s schema, in dollars as typed)', () => {
  it('takes dollars and cents, at least $10, at most the available funds', () => {
    expect(payoutAmount('25.50', 5000)).toEqual({ ok: true, value: { amount: 2550 } });
    expect(payoutAmount('$1,000', 100_000)).toEqual({ ok: true, value: { amount: 100_000 } });
    expect(payoutAmount('10', 1000)).toEqual({ ok: true, value: { amount: 1000 } });
    const code = (amount: string, available: number) => {
      const r = payoutAmount(amount, available);
      return r.ok ? null : [r.errors.amount?.code, r.errors.amount?.field];
    };
    expect(code('9.99', 5000)).toEqual(['PAYOUT_MINIMUM', 'amount']);
    expect(code('50.01', 5000)).toEqual(['INSUFFICIENT_FUNDS', 'amount']);
    expect(code('ten', 5000)).toEqual(['INVALID_VALUE', 'amount']);
    expect(code('', 5000)).toEqual(['INVALID_VALUE', 'amount']);
    expect(code('12.345', 5000)).toEqual(['INVALID_VALUE', 'amount']);
  });
});

describe('payout requests and cancellations', () => {
  function start(lists: PayoutsPage[]) {
    const calls: Array<[string, unknown]> = [];
    let load = 0;
    const actor = createActor(
      payoutMachine.provide({
        actors: {
          loadPayouts: fromPromise(async () => {
            calls.push(['load', null]);
            return lists[Math.min(load++, lists.length - 1)]!;
          }),
          createPayout: fromPromise(async ({ input }) => {
            calls.push(['create', input]);
            return { id: 'x', amount: input.amount, state: 'created' as const, createdAt: new Date() };
          }),
          cancelPayout: fromPromise(async ({ input }) => {
            calls.push(['cancel', input]);
            return { id: input.id, amount: 1, state: 'cancelled' as const, createdAt: new Date() };
          }),
        },
      }),
    ).start();
    return { actor, calls };
  }

  it('prefills the available funds, sends cents and loads the list again', async () => {
    const { actor, calls } = start([LIST_FUNDS, LIST_OPEN]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'payout.request' });
    expect(actor.getSnapshot().context.amount).toBe('50.00');
    actor.send({ type: 'payout.submit', amount: '$12.34' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.available === LIST_OPEN.available);
    expect(calls).toEqual([
      ['load', null],
      ['create', { amount: 1234 }],
      ['load', null],
    ]);
  });

  it('cancels the chosen request after confirming, then loads the list again', async () => {
    const { actor, calls } = start([LIST_OPEN, LIST_FUNDS]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'payout.request' }); // an open request: no form
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'payout.cancel', id: OPEN_ID });
    expect(actor.getSnapshot().value).toBe('confirmingCancel');
    actor.send({ type: 'payout.cancel.confirm' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.available === LIST_FUNDS.available);
    expect(calls).toEqual([
      ['load', null],
      ['cancel', { id: OPEN_ID }],
      ['load', null],
    ]);
  });
});
