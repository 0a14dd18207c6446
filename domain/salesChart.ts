import type { DateValue } from './dates';
import type { PayoutState } from './enums';
import { formatUsd } from './money';
import type { SalesChartJson } from './responses/sales';
import { isCommitted } from './sales';

/**
 * The figures of the creator's charts, from the same ledger as the sales table and the CSV:
 * - sales per day or per week (weeks start on Monday, UTC): how many completed sales and their net;
 * - the available funds over time: each completed sale adds its net when it happens, each payout
 *   request that holds funds (created, pending, approved, payed) takes its amount when it is made;
 *   the requests are marked on the chart.
 */
export type ChartBucket = 'day' | 'week';
export const chartPeriods = [7, 30, 90, 365] as const;
export type ChartPeriod = (typeof chartPeriods)[number];

export interface ChartSale {
  purchasedOn: DateValue;
  net: number;
  completed: boolean;
}
export interface ChartRequest {
  createdAt: DateValue;
  amount: number;
  state: PayoutState;
}

const DAY = 86_400_000;
const ms = (d: DateValue) => (d instanceof Date ? d.getTime() : Date.parse(d));

/** The start (UTC midnight) of the day or the week (Monday) of `t`. */
export function bucketStart(t: number, bucket: ChartBucket): number {
  const day = Math.floor(t / DAY) * DAY;
  if (bucket === 'day') return day;
  // 1970-01-01 was a Thursday: days since a Monday are (weekday + 6) % 7.
  const weekday = new Date(day).getUTCDay();
  return day - ((weekday + 6) % 7) * DAY;
}

export function salesChart(
  sales: readonly ChartSale[],
  requests: readonly ChartRequest[],
  period: { days: ChartPeriod; bucket: ChartBucket; now: Date },
): SalesChartJson {
  const to = period.now.getTime();
  const from = bucketStart(to - (period.days - 1) * DAY, period.bucket);
  const step = period.bucket === 'day' ? DAY : 7 * DAY;
  const buckets: SalesChartJson['sales'] = [];
  for (let start = from; start <= to; start += step) buckets.push({ start, count: 0, net: 0 });
  const completed = sales.filter((s) => s.completed);
  for (const sale of completed) {
    const t = ms(sale.purchasedOn);
    if (t < from || t > to) continue;
    const b = buckets[Math.floor((bucketStart(t, period.bucket) - from) / step)];
    if (!b) continue;
    b.count += 1;
    b.net += sale.net;
  }
  const holding = requests.filter((r) => isCommitted(r.state));
  const events = [
    ...completed.map((s) => ({ at: ms(s.purchasedOn), change: s.net })),
    ...holding.map((r) => ({ at: ms(r.createdAt), change: -r.amount })),
  ].sort((a, b) => a.at - b.at);
  let available = 0;
  const funds: SalesChartJson['funds'] = [];
  for (const e of events) {
    if (e.at > to) break;
    available += e.change;
    if (e.at >= from) funds.push({ at: e.at, available });
  }
  // The line starts at the balance before the period and ends now.
  const before = events.filter((e) => e.at < from).reduce((sum, e) => sum + e.change, 0);
  funds.unshift({ at: from, available: before });
  funds.push({ at: to, available });
  return {
    bucket: period.bucket,
    from,
    to,
    sales: buckets,
    funds,
    requests: requests
      .map((r) => ({ at: ms(r.createdAt), amount: r.amount, state: r.state }))
      .filter((r) => r.at >= from && r.at <= to)
      .sort((a, b) => a.at - b.at),
  };
}

const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** One sentence each for a screen reader: what the bars and the line show. */
export function chartSummaries(chart: SalesChartJson, days: ChartPeriod) {
  const count = chart.sales.reduce((sum, b) => sum + b.count, 0);
  const net = chart.sales.reduce((sum, b) => sum + b.net, 0);
  const best = chart.sales.reduce(
    (top, b) => (b.net > (top?.net ?? 0) ? b : top),
    null as null | (typeof chart.sales)[number],
  );
  const unit = chart.bucket === 'day' ? 'day' : 'week of';
  const sales =
    count === 0
      ? `No sales in the last ${days} days.`
      : `${count} ${count === 1 ? 'sale' : 'sales'} in the last ${days} days, ${formatUsd(net)} net.` +
        (best ? ` Best ${unit} ${dayFormat.format(best.start)}: ${formatUsd(best.net)}.` : '');
  const first = chart.funds[0]?.available ?? 0;
  const last = chart.funds.at(-1)?.available ?? 0;
  const asked = chart.requests.length;
  const funds = `Available funds went from ${formatUsd(first)} to ${formatUsd(last)} in the last ${days} days${
    asked ? `, with ${asked} payout ${asked === 1 ? 'request' : 'requests'}` : ''
  }.`;
  return { sales, funds };
}

export const chartDay = (t: number) => dayFormat.format(t);

/** Answers of these routes: their schemas are in ./responses/sales. */
export type { SalesChartJson } from './responses/sales';
