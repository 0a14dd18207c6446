import { describe, expect, it } from 'vitest';
import { bucketStart, chartSummaries, salesChart } from '#domain/salesChart';

const now = new Date('2026-11-26T15:00:00Z');
const at = (iso: string) => new Date(iso);

describe('the sales chart figures', () => {
  it('starts weeks on Monday (UTC) and days at midnight', () => {
    // 2026-11-26 is a Thursday.
    expect(new Date(bucketStart(now.getTime(), 'week')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(new Date(bucketStart(now.getTime(), 'day')).toISOString()).toBe('2026-11-26T00:00:00.000Z');
  });

  it('counts completed sales and their net per day; funds follow sales and the requests that hold them', () => {
    const chart = salesChart(
      [
        { purchasedOn: at('2026-11-01T10:00:00Z'), net: 5_000, completed: true },
        { purchasedOn: at('2026-11-24T10:00:00Z'), net: 2_125, completed: true },
        { purchasedOn: at('2026-11-24T18:00:00Z'), net: 1_000, completed: true },
        { purchasedOn: at('2026-11-25T09:00:00Z'), net: 9_999, completed: false },
      ],
      [
        { createdAt: at('2026-11-25T12:00:00Z'), amount: 2_000, state: 'approved' },
        { createdAt: at('2026-11-25T13:00:00Z'), amount: 500, state: 'denied' },
      ],
      { days: 7, bucket: 'day', now },
    );
    expect(chart.sales).toHaveLength(7);
    expect(chart.sales.map((b) => [new Date(b.start).toISOString().slice(0, 10), b.count, b.net])).toEqual([
      ['2026-11-20', 0, 0],
      ['2026-11-21', 0, 0],
      ['2026-11-22', 0, 0],
      ['2026-11-23', 0, 0],
      ['2026-11-24', 2, 3_125],
      ['2026-11-25', 0, 0],
      ['2026-11-26', 0, 0],
    ]);
    // 50 before the period, +21.25, +10, −20 for the approved request (the denied one holds nothing).
    expect(chart.funds.map((f) => f.available)).toEqual([5_000, 7_125, 8_125, 6_125, 6_125]);
    expect(chart.requests.map((r) => r.state)).toEqual(['approved', 'denied']);
    expect(chartSummaries(chart, 7)).toEqual({
      sales: '2 sales in the last 7 days, $31.25 net. Best day Nov 24, 2026: $31.25.',
      funds: 'Available funds went from $50 to $61.25 in the last 7 days, with 2 payout requests.',
    });
  });

  it('buckets by week and says when there were no sales', () => {
    const chart = salesChart([], [], { days: 30, bucket: 'week', now });
    expect(chart.sales.length).toBe(5);
    expect(chart.sales.every((b) => new Date(b.start).getUTCDay() === 1)).toBe(true);
    expect(chartSummaries(chart, 30).sales).toBe('No sales in the last 30 days.');
  });
});
