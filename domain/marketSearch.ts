import { parseDollars } from './dollars';
import { type StorefrontCategory, storefrontCategories } from './enums';
import type { BlueprintFilter } from './filters';

/**
 * The marketplace's URL: search text, price range entered in dollars (sent to the API as cents),
 * storefront categories and the sort; unknown or malformed values are dropped, so any URL opens a
 * working page. The routes read it, so it is in every first load; what the screens show to change it
 * (sort labels, category options, the sidebar's price filter) is in domain/marketFilterForm.ts.
 */
export const marketSorts = [
  'price-asc',
  'price-desc',
  'edition-asc',
  'edition-desc',
  'trending-desc',
] as const;
export type MarketSort = (typeof marketSorts)[number];
export const MARKET_PAGE_SIZE = 24;

export interface MarketSearch {
  q?: string;
  /** Dollars (numbers keep the URL readable: ?min=10&max=12.5). */
  min?: number;
  max?: number;
  categories?: string;
  sort?: MarketSort;
  page?: number;
}

const text = (v: unknown, max: number) =>
  typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : undefined;
/** A dollar amount from the URL (number or text), at most two decimals; else undefined. */
export const urlDollars = (v: unknown): number | undefined => {
  const s = typeof v === 'number' ? String(v) : text(v, 12);
  const cents = s === undefined ? null : parseDollars(s);
  return cents === null ? undefined : cents / 100;
};

export function parseMarketSearch(raw: Record<string, unknown>): MarketSearch {
  const out: MarketSearch = {};
  const q = text(raw.q, 100);
  if (q) out.q = q;
  const min = urlDollars(raw.min);
  if (min !== undefined) out.min = min;
  const max = urlDollars(raw.max);
  if (max !== undefined) out.max = max;
  const categories = parseCategories(raw.categories);
  if (categories.length) out.categories = categories.join(',');
  if (marketSorts.includes(raw.sort as MarketSort) && raw.sort !== 'price-asc')
    out.sort = raw.sort as MarketSort;
  const page = Number(raw.page);
  if (Number.isInteger(page) && page > 1 && page < 10_000) out.page = page;
  return out;
}

export function parseCategories(raw: unknown): StorefrontCategory[] {
  if (typeof raw !== 'string') return [];
  return raw
    .split(',')
    .filter((c): c is StorefrontCategory => (storefrontCategories as readonly string[]).includes(c));
}

/** The API filter for a marketplace URL (a page of MARKET_PAGE_SIZE). */
export function marketFilter(search: MarketSearch, extra: Partial<BlueprintFilter> = {}): BlueprintFilter {
  const [column, direction] = (search.sort ?? 'price-asc').split('-') as [
    'price' | 'edition' | 'trending',
    'asc' | 'desc',
  ];
  const page = search.page ?? 1;
  const min = search.min !== undefined ? Math.round(search.min * 100) : null;
  const max = search.max !== undefined ? Math.round(search.max * 100) : null;
  return {
    search: search.q,
    ...(min !== null ? { min } : {}),
    ...(max !== null ? { max } : {}),
    storefrontCategories: parseCategories(search.categories),
    sort: column === 'edition' ? 'quantity' : column,
    direction,
    from: (page - 1) * MARKET_PAGE_SIZE + 1,
    to: page * MARKET_PAGE_SIZE,
    ...extra,
  };
}
