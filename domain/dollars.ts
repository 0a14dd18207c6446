/**
 * A dollar amount typed by a person ("12", "12.5", "$1,250.99") in cents, or null when it is not
 * one (more than two decimals, letters, negative).
 */
export function parseDollars(input: string): number | null {
  const m = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d{0,2}))?$/.exec(input.trim());
  if (!m || (m[1] === undefined && !m[2])) return null;
  const dollars = Number((m[1] ?? '0').replaceAll(',', ''));
  const cents = Number((m[2] ?? '').padEnd(2, '0'));
  const total = dollars * 100 + cents;
  return Number.isSafeInteger(total) ? total : null;
}
