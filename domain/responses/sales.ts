import * as v from 'valibot';
import { payoutStates } from '../enums';
import { salePayoutStatuses, saleStatuses } from '../sales';
import { salesPageSizes } from '../salesSearch';
import { Count, DateTime, textAnswer } from './common';

/** A storefront's sales, payout requests, sales chart and sale notices as the product API answers them (cents). */

/** A part of a sale's net that one payout request covers. */
export const LedgerAllocation = v.object({
  requestId: v.string(),
  state: v.picklist(payoutStates),
  amount: v.number(),
});
export type LedgerAllocation = v.InferOutput<typeof LedgerAllocation>;

/** Where a sale's net stands in the payout ledger. */
export const LedgerEntry = v.object({
  allocations: v.array(LedgerAllocation),
  /** The part of the net no request covers yet. */
  unrequested: v.number(),
  status: v.picklist(salePayoutStatuses),
});
export type LedgerEntry = v.InferOutput<typeof LedgerEntry>;

export const SaleJson = v.object({
  /** The purchase id. */
  id: v.string(),
  purchasedOn: DateTime,
  blueprint: v.object({ id: v.string(), title: v.string(), previewImageUrl: v.nullable(v.string()) }),
  /** The edition (serial number); null for a refunded order that never got one. */
  seriesNumber: v.nullable(Count),
  status: v.picklist(saleStatuses),
  /** The price the buyer paid, and its shares. */
  amount: v.number(),
  royaltyFee: v.number(),
  platformFee: v.number(),
  net: v.number(),
  buyer: v.nullable(v.object({ username: v.string() })),
  payout: LedgerEntry,
});
export type SaleJson = v.InferOutput<typeof SaleJson>;

export const SalesPage = v.object({
  results: v.array(SaleJson),
  total: Count,
  page: Count,
  pageSize: v.picklist(salesPageSizes),
});
export type SalesPage = v.InferOutput<typeof SalesPage>;

export const PayoutRequestJson = v.object({
  id: v.string(),
  amount: v.number(),
  state: v.picklist(payoutStates),
  createdAt: DateTime,
});
export type PayoutRequestJson = v.InferOutput<typeof PayoutRequestJson>;

export const PayoutsPage = v.object({
  results: v.array(PayoutRequestJson),
  total: Count,
  page: Count,
  pageSize: Count,
  /** Cents that may be requested now: the available funds. */
  available: v.number(),
  /** The smallest request, cents. */
  minimum: v.number(),
});
export type PayoutsPage = v.InferOutput<typeof PayoutsPage>;

/** The sales chart: times in epoch milliseconds (from: the first bucket's start; to: the period's end). */
export const SalesChartJson = v.object({
  bucket: v.picklist(['day', 'week']),
  from: v.number(),
  to: v.number(),
  sales: v.array(v.object({ start: v.number(), count: Count, net: v.number() })),
  funds: v.array(v.object({ at: v.number(), available: v.number() })),
  requests: v.array(v.object({ at: v.number(), amount: v.number(), state: v.picklist(payoutStates) })),
});
export type SalesChartJson = v.InferOutput<typeof SalesChartJson>;

/**
 * A notice: a sale of one of the caller's items (kind sale: amount paid, net theirs), or of an item
 * they saved, its price drop (priceDrop: amount the new price, net the lowest before) or its sale
 * opening (saleOpen: amount its price, net null).
 */
export const SaleNoticeJson = v.object({
  id: v.string(),
  kind: v.string(),
  title: v.string(),
  serialNumber: v.nullable(Count),
  amount: v.number(),
  net: v.nullable(v.number()),
  read: v.boolean(),
  createdAt: DateTime,
});
/** The caller's latest sale notices (50) and how many are unread. */
export const SaleNotices = v.object({ results: v.array(SaleNoticeJson), unread: Count });

/** GET sales/ledger.csv: the storefront's sales and payout requests as CSV, with a header row. */
export const LedgerCsv = textAnswer('text/csv');
