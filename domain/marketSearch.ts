import { categoryLabels } from './catalog';
import { type StorefrontCategory, storefrontCategories } from './enums';
import type { BlueprintFilter } from './filters';
import { parseDollars } from './money';

/**
 * The marketplace's URL: search text, price range entered in dollars (sent to the API as cents),
 * storefront categories and the sort; unknown or malformed values are dropped, so any URL opens a
 * working page.
 */
export const marketSorts = ['price-asc', 'price-desc', 'edition-asc', 'edition-desc'] as const;
export type MarketSort = (typeof marketSorts)[number];
export const marketSortLabels: Record<MarketSort, string> = {
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  'edition-asc': 'Edition size: small to large',
  'edition-desc': 'Edition size: large to small',
};
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
    'price' | 'edition',
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
    sort: column === 'edition' ? 'quantity' : 'price',
    direction,
    from: (page - 1) * MARKET_PAGE_SIZE + 1,
    to: page * MARKET_PAGE_SIZE,
    ...extra,
  };
}

export const categoryOptions = storefrontCategories.map((value) => ({ value, label: categoryLabels[value] }));

/** What a person typed in the sidebar filter: a price range in dollars and the categories ticked. */
export interface PriceFilterEntry {
  min: string;
  max: string;
  categories: readonly string[];
}
export interface PriceFilterResult {
  minError: string | null;
  maxError: string | null;
  /** The URL's filter part, when both amounts read (an empty field: no bound). */
  search: Pick<MarketSearch, 'min' | 'max' | 'categories'> | null;
}

const notDollars = 'Enter an amount in dollars, e.g. 25 or 12.50';

/**
 * The sidebar filter checked: each bound an amount in dollars (at most two decimals), the maximum
 * not below the minimum.
 */
export function priceFilter(entry: PriceFilterEntry): PriceFilterResult {
  const min = entry.min.trim() ? parseDollars(entry.min) : undefined;
  const max = entry.max.trim() ? parseDollars(entry.max) : undefined;
  const minError = min === null ? notDollars : null;
  const maxError =
    max === null
      ? notDollars
      : max !== undefined && min !== null && max < (min ?? 0)
        ? 'The maximum is below the minimum'
        : null;
  if (minError || maxError || min === null || max === null) return { minError, maxError, search: null };
  return {
    minError,
    maxError,
    search: {
      min: min === undefined ? undefined : min / 100,
      max: max === undefined ? undefined : max / 100,
      categories: entry.categories.length ? entry.categories.join(',') : undefined,
    },
  };
}

/** A price filter's text fields as the URL has them ("" for no bound). */
export const priceFilterEntry = (search: MarketSearch): PriceFilterEntry => ({
  min: search.min?.toString() ?? '',
  max: search.max?.toString() ?? '',
  categories: parseCategories(search.categories),
});
