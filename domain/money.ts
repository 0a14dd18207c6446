/**
 * Money: integer cents end to end; shown in USD without decimals when whole. On chain,
 * prices are FUSD amounts (UFix64, 8 decimals) at one FUSD per dollar. Reading a typed dollar
 * amount is in domain/dollars.ts (re-exported here): the marketplace's URL, which every first load
 * parses, needs only that.
 */

export { parseDollars } from './dollars';

const usdWhole = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
const usdCents = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** "$12", "$12.50", "$1,000". */
export function formatUsd(cents: number): string {
  return cents % 100 === 0 ? usdWhole.format(cents / 100) : usdCents.format(cents / 100);
}

/** A price as a list shows it: "Free" for nothing, else "$12.50". */
export function formatPrice(cents: number): string {
  return cents === 0 ? 'Free' : formatUsd(cents);
}

/** What a balance lacks to pay `price` (both in cents); 0 when it covers it. */
export function shortfallCents(price: number, balance: number): number {
  return Math.max(0, price - balance);
}

/** Cents as an FUSD amount for a Cadence UFix64 argument: 1250 → "12.50". */
export function centsToFusd(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new Error(`not an amount of cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** An FUSD amount (UFix64 text) in cents, rounded half up: "12.50000000" → 1250. */
export function fusdToCents(amount: string): number {
  const m = /^(\d+)(?:\.(\d{1,8}))?$/.exec(String(amount).trim());
  if (!m) throw new Error(`not a UFix64 amount: ${amount}`);
  const fraction = (m[2] ?? '').padEnd(8, '0');
  const units = BigInt(m[1]!) * 100_000_000n + BigInt(fraction);
  return Number((units + 500_000n) / 1_000_000n);
}

/** A percentage (7.5) as the fraction a Cadence UFix64 rate argument takes ("0.075"). */
export function percentToRate(percent: number): string {
  if (!(percent >= 0 && percent < 100)) throw new Error(`not a percentage below 100: ${percent}`);
  return (percent / 100).toFixed(8);
}

/**
 * An amount in cents split into `parts` whole-cent shares that add up to it; the first shares take
 * the leftover cents (1001 in 3 → 334, 334, 333). A pack's price is split this way over its editions.
 */
export function splitCents(cents: number, parts: number): number[] {
  if (!Number.isSafeInteger(cents) || cents < 0)
    throw new RangeError('splitCents: cents must be a whole amount ≥ 0');
  if (!Number.isSafeInteger(parts) || parts < 1) throw new RangeError('splitCents: parts must be ≥ 1');
  const base = Math.floor(cents / parts);
  const left = cents - base * parts;
  return Array.from({ length: parts }, (_, i) => base + (i < left ? 1 : 0));
}
