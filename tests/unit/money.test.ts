import { describe, expect, it } from 'vitest';
import {
  centsToFusd,
  formatPrice,
  formatUsd,
  fusdToCents,
  parseDollars,
  percentToRate,
  shortfallCents,
} from '#domain/money';
import { sellerNetCents } from '#domain/nft';

describe('money (cents end to end, USD without decimals when whole)', () => {
  it('formats cents as USD, dropping decimals only when whole', () => {
    expect(formatUsd(0)).toBe('$0');
    expect(formatPrice(0)).toBe('Free');
    expect(formatPrice(1250)).toBe('$12.50');
    expect(formatUsd(1200)).toBe('$12');
    expect(formatUsd(1250)).toBe('$12.50');
    expect(formatUsd(1)).toBe('$0.01');
    expect(formatUsd(100_000_000)).toBe('$1,000,000');
  });

  it('reads dollars typed by a person as cents', () => {
    expect(parseDollars('12')).toBe(1200);
    expect(parseDollars('12.5')).toBe(1250);
    expect(parseDollars(' $1,250.99 ')).toBe(125_099);
    expect(parseDollars('.5')).toBe(50);
    expect(parseDollars('0')).toBe(0);
    for (const bad of ['', '.', 'abc', '-1', '1.234', '1,2345', '12$', '1e3'])
      expect(parseDollars(bad)).toBeNull();
  });

  it('converts between cents and FUSD amounts (UFix64)', () => {
    expect(centsToFusd(1250)).toBe('12.50');
    expect(centsToFusd(7)).toBe('0.07');
    expect(() => centsToFusd(-1)).toThrow();
    expect(() => centsToFusd(1.5)).toThrow();
    expect(fusdToCents('20.00000000')).toBe(2000);
    expect(fusdToCents('0.01')).toBe(1);
    expect(fusdToCents('12.345')).toBe(1235);
    expect(fusdToCents('12.34499999')).toBe(1234);
    expect(fusdToCents('7')).toBe(700);
    expect(() => fusdToCents('-1')).toThrow();
  });

  it('says what a balance lacks, and what a seller receives after the royalty and platform fee', () => {
    expect(shortfallCents(2500, 1200)).toBe(1300);
    expect(shortfallCents(2500, 3000)).toBe(0);
    expect(sellerNetCents(1250, { royaltyPercent: 10, platformFeePercent: 5 })).toBe(1063);
    expect(sellerNetCents(1000, { royaltyPercent: 0, platformFeePercent: 0 })).toBe(1000);
  });

  it('turns a percentage into a UFix64 rate', () => {
    expect(percentToRate(7.5)).toBe('0.07500000');
    expect(percentToRate(0)).toBe('0.00000000');
    expect(() => percentToRate(100)).toThrow();
  });
});
