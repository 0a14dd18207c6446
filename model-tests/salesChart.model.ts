import { expect } from 'vitest';
import type { SalesChartJson } from '#domain/salesChart';
import { salesChartMachine } from '../machines/salesChart';
import { after, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof salesChartMachine>;
/** The period and bucket chosen last (30 days by day at first). */
const chosen = (o: O) => ({
  days: (o.history.filter((e) => e.type === 'chart.period').at(-1)?.days as number) ?? 30,
  bucket: (o.history.filter((e) => e.type === 'chart.bucket').at(-1)?.bucket as string) ?? 'day',
});

const DAY = 86_400_000;
const from = Date.UTC(2026, 10, 20);
export const CHART: SalesChartJson = {
  bucket: 'day',
  from,
  to: from + 7 * DAY - 1,
  sales: Array.from({ length: 7 }, (_, i) => ({
    start: from + i * DAY,
    count: i === 4 ? 2 : 0,
    net: i === 4 ? 3_125 : 0,
  })),
  funds: [
    { at: from, available: 5_000 },
    { at: from + 4 * DAY, available: 8_125 },
    { at: from + 5 * DAY, available: 6_125 },
  ],
  requests: [{ at: from + 5 * DAY, amount: 2_000, state: 'approved' }],
};

export const salesChartModel: MachineModel<typeof salesChartMachine> = {
  machine: salesChartMachine,
  fakes: ['fetchChart'],
  scenarios: [
    {
      name: 'the sales chart',
      input: { storefrontId: '6f1c2a4e-8d0b-4c3a-9e57-2b1d0f9a7c11', kind: 'sales' },
    },
    {
      name: 'the funds chart',
      input: { storefrontId: '6f1c2a4e-8d0b-4c3a-9e57-2b1d0f9a7c11', kind: 'funds' },
    },
  ],
  events: () => [
    { type: 'xstate.done.actor.fetchChart', output: CHART },
    {
      type: 'xstate.error.actor.fetchChart',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
    },
    { type: 'chart.retry' },
    { type: 'chart.period', days: 7 },
    { type: 'chart.period', days: 30 },
    { type: 'chart.bucket', bucket: 'week' },
    { type: 'chart.bucket', bucket: 'day' },
  ],
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.kind,
      s.context.days,
      s.context.bucket,
      !!s.context.chart,
      s.context.error?.code ?? null,
    ]),
  expect: {
    // The chart of the period and bucket chosen.
    loading: (o) => {
      expectWorking(o, 'fetchChart', { storefrontId: '6f1c2a4e-8d0b-4c3a-9e57-2b1d0f9a7c11', ...chosen(o) });
    },
    ready: (o) => {
      expect(o.snapshot.context.chart).toEqual(CHART);
      expect(o.snapshot.context).toMatchObject(chosen(o));
    },
    failed: (o) => {
      expect(after(o, 'error', 'fetchChart')).toBe(true);
      expect(o.snapshot.context.error?.code).toBe('NETWORK_FAILURE');
    },
  },
};
