import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd } from '#domain/money';
import { payoutStateLabels } from '#domain/sales';
import {
  type ChartBucket,
  type ChartPeriod,
  chartDay,
  chartPeriods,
  chartSummaries,
  type SalesChartJson,
} from '#domain/salesChart';
import { type ButtonProps, buttonProps } from './props';

/**
 * A creator's chart above a table: "sales" (completed sales and their net per day or week) on the
 * Sales panel, "funds" (the available funds over time, payout requests marked) on the payouts
 * page, over the last 7, 30, 90 or 365 days. Changing the period or the bucket loads the figures
 * again; a failed load can be retried.
 */
export interface SalesChartInput {
  storefrontId: string;
  kind: 'sales' | 'funds';
}
export interface SalesChartContext extends SalesChartInput {
  days: ChartPeriod;
  bucket: ChartBucket;
  chart: SalesChartJson | null;
  error: ApiErrorBody | null;
}
export type SalesChartEvent =
  | { type: 'chart.period'; days: ChartPeriod }
  | { type: 'chart.bucket'; bucket: ChartBucket }
  | { type: 'chart.retry' };

export const salesChartMachine = setup({
  types: {
    context: {} as SalesChartContext,
    events: {} as SalesChartEvent,
    input: {} as SalesChartInput,
    tags: {} as 'busy',
  },
  actors: {
    /** GET sales/chart. */
    fetchChart: fromPromise<SalesChartJson, { storefrontId: string; days: ChartPeriod; bucket: ChartBucket }>(
      async () => {
        throw new Error('fetchChart not provided');
      },
    ),
  },
  guards: {
    otherPeriod: ({ context, event }) => event.type === 'chart.period' && event.days !== context.days,
    // Only the sales chart groups by day or week; the funds line follows every change.
    otherBucket: ({ context, event }) =>
      context.kind === 'sales' && event.type === 'chart.bucket' && event.bucket !== context.bucket,
  },
}).createMachine({
  id: 'salesChart',
  context: ({ input }) => ({ ...input, days: 30, bucket: 'day', chart: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchChart',
        src: 'fetchChart',
        input: ({ context }) => ({
          storefrontId: context.storefrontId,
          days: context.days,
          bucket: context.bucket,
        }),
        onDone: { target: 'ready', actions: assign({ chart: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    ready: {
      on: {
        'chart.period': {
          guard: 'otherPeriod',
          target: 'loading',
          actions: assign({ days: ({ event }) => event.days }),
        },
        'chart.bucket': {
          guard: 'otherBucket',
          target: 'loading',
          actions: assign({ bucket: ({ event }) => event.bucket }),
        },
      },
    },
    failed: {
      on: { 'chart.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
  },
});

/** What the chart view shows: the plot's series, a sentence, and the same figures as a table. */
export interface SalesChartView {
  title: string;
  summary: string;
  periods: { days: ChartPeriod; label: string; selected: boolean }[];
  bucket: ChartBucket;
  /** The bucket choice exists for the sales chart only. */
  showBucket: boolean;
  /** uPlot's aligned data: x in seconds, then one array per series (dollars). */
  data: number[][] | null;
  series: { label: string; kind: 'bars' | 'line' }[];
  /** Payout requests to mark on the funds chart: x in seconds and a label. */
  marks: { x: number; label: string }[];
  table: { caption: string; columns: string[]; rows: string[][] };
  busy: boolean;
  failed: boolean;
  canRetry: boolean;
  error: string | null;
  /** A period's button (pressed when it is the chart's). */
  getPeriodButtonProps: (days: ChartPeriod) => PressedButtonProps;
  /** "By day", "By week" (pressed when it is the chart's). */
  getBucketButtonProps: (bucket: ChartBucket) => PressedButtonProps;
  getRetryButtonProps: () => ButtonProps;
}
type PressedButtonProps = ButtonProps & { 'aria-pressed': boolean };

export function connectSalesChart(
  snapshot: SnapshotFrom<typeof salesChartMachine>,
  send: (event: SalesChartEvent) => void,
): SalesChartView {
  const { kind, days, bucket, chart, error } = snapshot.context;
  const periods = chartPeriods.map((d) => ({
    days: d,
    label: d === 365 ? '1 year' : `${d} days`,
    selected: d === days,
  }));
  const summaries = chart ? chartSummaries(chart, days) : null;
  const sec = (t: number) => Math.floor(t / 1000);
  /**
   * A button that sends `event`. The period and bucket buttons stay enabled (the chart's own one
   * too, which the machine ignores); Try again only where the machine takes it.
   */
  const button = (event: SalesChartEvent) =>
    buttonProps({
      onClick: () => send(event),
      disabled: event.type === 'chart.retry' && !snapshot.can(event),
    });
  const base = {
    periods,
    bucket,
    showBucket: kind === 'sales',
    busy: snapshot.hasTag('busy'),
    failed: snapshot.matches('failed'),
    canRetry: snapshot.can({ type: 'chart.retry' }),
    error: error ? errorMessage(error) : null,
    getPeriodButtonProps: (d: ChartPeriod) => ({
      ...button({ type: 'chart.period', days: d }),
      'aria-pressed': d === days,
    }),
    getBucketButtonProps: (b: ChartBucket) => ({
      ...button({ type: 'chart.bucket', bucket: b }),
      'aria-pressed': b === bucket,
    }),
    getRetryButtonProps: () => button({ type: 'chart.retry' }),
  };
  if (kind === 'sales') {
    return {
      ...base,
      title: 'Sales over time',
      summary: summaries?.sales ?? '',
      data: chart
        ? [
            chart.sales.map((b) => sec(b.start)),
            chart.sales.map((b) => b.count),
            chart.sales.map((b) => b.net / 100),
          ]
        : null,
      series: [
        { label: 'Sales', kind: 'bars' },
        { label: 'Net revenue ($)', kind: 'line' },
      ],
      marks: [],
      table: {
        caption: `Sales per ${bucket}`,
        columns: [bucket === 'day' ? 'Day' : 'Week of', 'Sales', 'Net revenue'],
        rows: (chart?.sales ?? []).map((b) => [chartDay(b.start), String(b.count), formatUsd(b.net)]),
      },
    };
  }
  return {
    ...base,
    title: 'Available funds over time',
    summary: summaries?.funds ?? '',
    data: chart ? [chart.funds.map((f) => sec(f.at)), chart.funds.map((f) => f.available / 100)] : null,
    series: [{ label: 'Available funds ($)', kind: 'line' }],
    marks: (chart?.requests ?? []).map((r) => ({
      x: sec(r.at),
      label: `Payout request ${formatUsd(r.amount)} (${payoutStateLabels[r.state].toLowerCase()})`,
    })),
    table: {
      caption: 'Payout requests in the period',
      columns: ['Date', 'Amount', 'State'],
      rows: (chart?.requests ?? []).map((r) => [
        chartDay(r.at),
        formatUsd(r.amount),
        payoutStateLabels[r.state],
      ]),
    },
  };
}
