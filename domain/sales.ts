import { type ApiErrorBody, clientErrorTexts } from './apiError';
import type { DateValue } from './dates';
import { type PayoutState, payoutCommittedStates } from './enums';
import type { LedgerAllocation, LedgerEntry } from './responses/sales';

export {
  parseSalesSearch,
  SALES_PAGE_SIZE_DEFAULT,
  type SalesPageSize,
  type SalesSearch,
  salesPageSizes,
} from './salesSearch';

/**
 * A storefront's sales and its payout ledger (the dashboard's Sales table, the payouts page, the
 * payout rule, the seller's net). Pure arithmetic shared by the server (answers, CSV) and the browser.
 *
 * - A sale is a primary sale: a recorded purchase of one of the storefront's blueprints that is not
 *   a resale (resales pay the creator a royalty on chain, in FUSD, outside USD payouts).
 * - The seller of a primary sale is the item's creator, to whom its royalty goes: a primary sale
 *   deducts no royalty (royaltyFee 0). The platform fee is the blueprint's totalFeePercent of the
 *   amount, rounded half up to a whole cent (2 decimals of a dollar); net = amount − fee.
 * - Available funds = total net − the amounts of requests in created, pending, approved or payed.
 * - Ledger: requests (those committed states, oldest first) cover the sales' net oldest first; a
 *   sale may be split over two requests, and what no request covers is "unrequested".
 */

/** The smallest payout request, in cents ($10): a request needs at least this much available. */
export const PAYOUT_MINIMUM = 1000;
/** A recorded purchase is sealed on chain: every sale is completed. */
/**
 * A sale's status: pending (paid, the edition is being minted), completed (the buyer holds it) or
 * refunded (the edition could not be minted and the payment was returned). Only completed sales
 * count toward a storefront's available funds.
 */
export const saleStatuses = ['pending', 'completed', 'refunded'] as const;
export type SaleStatus = (typeof saleStatuses)[number];
export const saleStatusLabels: Record<SaleStatus, string> = {
  pending: 'Pending',
  completed: 'Completed',
  refunded: 'Refunded',
};

/** Where a sale's net stands in the payout ledger. */
export const salePayoutStatuses = ['unpaid', 'requested', 'paid', 'nothingDue'] as const;
export type SalePayoutStatus = (typeof salePayoutStatuses)[number];
export const salePayoutStatusLabels: Record<SalePayoutStatus, string> = {
  unpaid: 'Unpaid',
  requested: 'In payout request',
  paid: 'Paid',
  nothingDue: 'Nothing due',
};

export const payoutStateLabels: Record<PayoutState, string> = {
  created: 'Requested',
  pending: 'Pending',
  approved: 'Approved',
  payed: 'Paid',
  denied: 'Denied',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

/**
 * `percent` % of `cents`, rounded half up to a whole cent. Exact: the percentage is taken to
 * 6 decimals and the product computed on integers, so 2500 × 7.5 % is 187.5 → 188, never 187.
 */
export function percentOf(cents: number, percent: number): number {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new Error(`not an amount of cents: ${cents}`);
  if (!(percent >= 0 && percent <= 100)) throw new Error(`not a percentage: ${percent}`);
  const micro = BigInt(Math.round(percent * 1_000_000));
  const scale = 100_000_000n; // 100 (percent) × 10^6 (micro)
  return Number((BigInt(cents) * micro * 2n + scale) / (2n * scale));
}

export interface SaleShares {
  /** The royalty deducted from the seller, cents: 0 on a primary sale (the seller is the creator). */
  royaltyFee: number;
  /** The platform's fee (totalFeePercent), cents. */
  platformFee: number;
  /** What the seller is owed: amount − royalty − fee, cents. */
  net: number;
}

/**
 * The shares of a primary sale of `amount` cents: the creator sells, and owes no royalty to
 * themselves (royaltyFee 0); the platform takes totalFeePercent; net = amount − platform fee.
 */
export function primarySaleShares(amount: number, totalFeePercent: number): SaleShares {
  const platformFee = percentOf(amount, totalFeePercent);
  return { royaltyFee: 0, platformFee, net: amount - platformFee };
}

/** Whether a request in this state holds back funds (created, pending, approved or payed). */
export const isCommitted = (state: PayoutState) => payoutCommittedStates.includes(state);

/** Available funds: the sales' total net minus the committed requests. */
export function availableFunds(
  totalNet: number,
  requests: ReadonlyArray<{ amount: number; state: PayoutState }>,
): number {
  const committed = requests.filter((r) => isCommitted(r.state)).reduce((sum, r) => sum + r.amount, 0);
  return totalNet - committed;
}

export interface LedgerSale {
  id: string;
  net: number;
  purchasedOn: DateValue;
}
export interface LedgerRequest {
  id: string;
  amount: number;
  state: PayoutState;
  createdAt: DateValue;
}

const time = (d: DateValue) => (d instanceof Date ? d.getTime() : Date.parse(d));
const byTime =
  <T extends { id: string }>(at: (x: T) => DateValue) =>
  (a: T, b: T) =>
    time(at(a)) - time(at(b)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The ledger status of a sale from what covers it. */
export function salePayoutStatus(net: number, allocations: readonly LedgerAllocation[], unrequested: number) {
  if (net <= 0) return 'nothingDue' as const;
  if (allocations.length === 0) return 'unpaid' as const;
  if (unrequested === 0 && allocations.every((a) => a.state === 'payed')) return 'paid' as const;
  return 'requested' as const;
}

/**
 * The payout ledger: committed requests, oldest first, cover the sales' net oldest first (FIFO).
 * Answers an entry for every sale, by sale id. Requests in other states cover nothing.
 */
export function payoutLedger(
  sales: readonly LedgerSale[],
  requests: readonly LedgerRequest[],
): Map<string, LedgerEntry> {
  const queue = requests
    .filter((r) => isCommitted(r.state))
    .sort(byTime((r) => r.createdAt))
    .map((r) => ({ ...r, left: r.amount }));
  const out = new Map<string, LedgerEntry>();
  let i = 0;
  for (const sale of [...sales].sort(byTime((s) => s.purchasedOn))) {
    const allocations: LedgerAllocation[] = [];
    let owed = Math.max(0, sale.net);
    while (owed > 0 && i < queue.length) {
      const request = queue[i]!;
      const part = Math.min(owed, request.left);
      if (part > 0) allocations.push({ requestId: request.id, state: request.state, amount: part });
      owed -= part;
      request.left -= part;
      if (request.left === 0) i++;
    }
    out.set(sale.id, {
      allocations,
      unrequested: owed,
      status: salePayoutStatus(sale.net, allocations, owed),
    });
  }
  return out;
}

/** Cents as a plain decimal dollar amount for files: 1250 → "12.50", -5 → "-0.05". */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/* ---- Shapes on the wire ---- */

/** The text of a failed payout request: the server's message, else errors.default. */
export const payoutFailureText = (error: Pick<ApiErrorBody, 'message'> | null | undefined) =>
  error?.message || clientErrorTexts['errors.default'];

/** Answers of these routes: their schemas are in ./responses/sales. */
export type {
  LedgerAllocation,
  LedgerEntry,
  PayoutRequestJson,
  PayoutsPage,
  SaleJson,
  SalesPage,
} from './responses/sales';
