import { centsToDecimal, saleStatusLabels } from '#domain/sales';
import type { Ledger } from './ledger';

/**
 * The payout ledger as CSV (RFC 4180): a header row, then one row per sale, oldest first, lines
 * ending in CRLF. Money is in dollars with two decimals ("12.50", no symbol, no thousands separator)
 * and the gross again in cents. A sale split over several payout requests lists them in one row,
 * `;`-separated and in the same order in the three payout_request_* columns.
 */

export const LEDGER_COLUMNS = [
  'sale_id',
  'purchased_on',
  'blueprint_id',
  'blueprint_title',
  'edition',
  'buyer',
  'status',
  'gross_cents',
  'gross_usd',
  'platform_fee_usd',
  'royalty_usd',
  'net_usd',
  'payout_request_ids',
  'payout_request_states',
  'payout_request_amounts_usd',
  'unrequested_usd',
  'payout_status',
] as const;

/**
 * One CSV field: quoted when it holds a comma, a quote or a line break (quotes doubled). Text that a
 * spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) gets a leading apostrophe.
 */
export function csvField(value: string | number, text = true): string {
  let s = String(value);
  if (text && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function ledgerCsv(ledger: Ledger): string {
  const lines = [LEDGER_COLUMNS.join(',')];
  for (const sale of ledger.sales) {
    const entry = ledger.entries.get(sale.id)!;
    const texts = [
      sale.id,
      sale.purchasedOn.toISOString(),
      sale.blueprint.id,
      sale.blueprint.title,
      sale.seriesNumber === null ? '' : String(sale.seriesNumber),
      sale.buyer?.username ?? '',
      saleStatusLabels[sale.status],
    ].map((v) => csvField(v));
    const numbers = [
      String(sale.amount),
      centsToDecimal(sale.amount),
      centsToDecimal(sale.platformFee),
      centsToDecimal(sale.royaltyFee),
      centsToDecimal(sale.net),
      entry.allocations.map((a) => a.requestId).join(';'),
      entry.allocations.map((a) => a.state).join(';'),
      entry.allocations.map((a) => centsToDecimal(a.amount)).join(';'),
      centsToDecimal(entry.unrequested),
      entry.status,
    ].map((v) => csvField(v, false));
    lines.push([...texts, ...numbers].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
