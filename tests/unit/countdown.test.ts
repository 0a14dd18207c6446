import { describe, expect, it } from 'vitest';
import { countdownText, priceLabel, remainingUntil } from '#domain/countdown';

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

describe('countdownText', () => {
  it('shows hours:minutes:seconds, zero-padded, up to 99 hours', () => {
    expect(countdownText(5 * SECOND)).toBe('00:00:05');
    expect(countdownText(61 * SECOND)).toBe('00:01:01');
    expect(countdownText(10 * HOUR + 2 * 60 * SECOND + 3 * SECOND)).toBe('10:02:03');
    expect(countdownText(25 * HOUR)).toBe('25:00:00');
    expect(countdownText(99 * HOUR - SECOND)).toBe('98:59:59');
    expect(countdownText(99 * HOUR)).toBe('99:00:00');
  });

  it('rounds seconds up, so the last second reads 00:00:01', () => {
    expect(countdownText(1)).toBe('00:00:01');
    expect(countdownText(1500)).toBe('00:00:02');
    expect(countdownText(999)).toBe('00:00:01');
    expect(countdownText(0)).toBe('00:00:00');
    expect(countdownText(-5000)).toBe('00:00:00');
  });

  it('shows a day count above 99 hours', () => {
    expect(countdownText(99 * HOUR + SECOND)).toBe('4 days');
    expect(countdownText(99 * HOUR + 1)).toBe('4 days');
    expect(countdownText(5 * DAY)).toBe('5 days');
    expect(countdownText(5 * DAY + 23 * HOUR)).toBe('5 days');
    expect(countdownText(120 * DAY)).toBe('120 days');
  });
});

describe('remainingUntil', () => {
  it('is the time left, or 0 without availableTime', () => {
    expect(remainingUntil(10_000, 4_000)).toBe(6_000);
    expect(remainingUntil(1_000, 4_000)).toBe(-3_000);
    expect(remainingUntil(null, 4_000)).toBe(0);
  });
});

describe('priceLabel', () => {
  it('is "price" for a drop not yet live, else "from"', () => {
    expect(priceLabel({ drop: true, live: false })).toBe('price');
    expect(priceLabel({ drop: true, live: true })).toBe('from');
    expect(priceLabel({ drop: false, live: false })).toBe('from');
    expect(priceLabel({ drop: false, live: true })).toBe('from');
  });
});
