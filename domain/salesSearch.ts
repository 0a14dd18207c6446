/**
 * The Sales panel's URL (its page and page size), which the dashboard's route reads in every first
 * load; the sales and payout arithmetic is in domain/sales.ts (which re-exports this).
 */

/** Page sizes of the sales table: 25, 50 or 100, 50 by default. */
export const salesPageSizes = [25, 50, 100] as const;
export type SalesPageSize = (typeof salesPageSizes)[number];
export const SALES_PAGE_SIZE_DEFAULT: SalesPageSize = 50;

/** The Sales panel's search params: page ≥ 1 and a page size of 25, 50 or 100 (defaults left out). */
export interface SalesSearch {
  /** Only this blueprint's sales. */
  blueprintId?: string;
  page?: number;
  pageSize?: SalesPageSize;
}
export function parseSalesSearch(raw: Record<string, unknown>): SalesSearch {
  const out: SalesSearch = {};
  if (typeof raw.blueprintId === 'string' && /^[0-9a-f-]{36}$/i.test(raw.blueprintId))
    out.blueprintId = raw.blueprintId;
  const page = Number(raw.page);
  if (Number.isSafeInteger(page) && page > 1) out.page = page;
  const size = Number(raw.pageSize);
  if (salesPageSizes.includes(size as SalesPageSize) && size !== SALES_PAGE_SIZE_DEFAULT)
    out.pageSize = size as SalesPageSize;
  return out;
}
