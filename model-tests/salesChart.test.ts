import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { SalesChartJson } from '#domain/salesChart';
import { connectSalesChart, salesChartMachine } from '../machines/salesChart';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { CHART, salesChartModel } from './salesChart.model';

describe('salesChart machine paths', () => {
  const paths = generatePaths(salesChartModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
  for (const path of paths) it(path.description, () => runPath(salesChartModel, path));
  afterAll(() => flushCoverage('machine'));
});

describe('salesChart', () => {
  it('asks for the period and bucket chosen, and gives the plot, the sentence and the table the same figures', async () => {
    const asked: unknown[] = [];
    const actor = createActor(
      salesChartMachine.provide({
        actors: {
          fetchChart: fromPromise(async ({ input }) => {
            asked.push([input.days, input.bucket]);
            return { ...CHART, bucket: input.bucket };
          }),
        },
      }),
      { input: { storefrontId: 's1', kind: 'sales' } },
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    // Through the buttons' prop getters, as the chart does.
    const connect = () => connectSalesChart(actor.getSnapshot(), (event) => actor.send(event));
    expect(connect().getPeriodButtonProps(30)).toMatchObject({ disabled: false, 'aria-pressed': true });
    expect(connect().getPeriodButtonProps(7)).toMatchObject({ disabled: false, 'aria-pressed': false });
    connect().getPeriodButtonProps(7).onClick!();
    await waitFor(actor, (s) => s.matches('ready'));
    connect().getBucketButtonProps('week').onClick!();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(connect().getBucketButtonProps('week')['aria-pressed']).toBe(true);
    expect(asked).toEqual([
      [30, 'day'],
      [7, 'day'],
      [7, 'week'],
    ]);
    const view = connect();
    expect(view.data![1]).toEqual([0, 0, 0, 0, 2, 0, 0]);
    expect(view.data![2]![4]).toBe(31.25);
    expect(view.summary).toBe('2 sales in the last 7 days, $31.25 net. Best week of Nov 24, 2026: $31.25.');
    expect(view.table.rows[4]).toEqual(['Nov 24, 2026', '2', '$31.25']);
  });

  it('names a payout request’s state as people read it: a request in state payed is "paid"', async () => {
    const actor = createActor(
      salesChartMachine.provide({
        actors: {
          fetchChart: fromPromise(
            async (): Promise<SalesChartJson> => ({
              ...CHART,
              requests: [{ at: CHART.from, amount: 2_000, state: 'payed' }],
            }),
          ),
        },
      }),
      { input: { storefrontId: 's1', kind: 'funds' } },
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    const view = connectSalesChart(actor.getSnapshot(), () => {});
    expect(view.marks.map((m) => m.label)).toEqual(['Payout request $20 (paid)']);
    expect(view.table.rows).toEqual([['Nov 20, 2026', '$20', 'Paid']]);
  });
});
