import { categoryLabels } from './catalog';
import { parseDollars } from './dollars';
import { storefrontCategories } from './enums';
import { type MarketSearch, type MarketSort, parseCategories } from './marketSearch';

/**
 * What the marketplace and storefront screens show to change their URL (domain/marketSearch.ts):
 * the sort labels, the category options and the sidebar's price filter.
 */
export const marketSortLabels: Record<MarketSort, string> = {
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  'edition-asc': 'Edition size: small to large',
  'edition-desc': 'Edition size: large to small',
  /** Most sales in the last 24 hours first, ties by their volume. */
  'trending-desc': 'Trending',
};
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

/**
 * The Filters button that folds the filter away on narrow screens: how many filters the URL
 * applies (a price range counts once, whether a minimum, a maximum or both; each category once)
 * and its name, "Filters" or "Filters, 2 applied".
 */
export function filterToggle(search: MarketSearch): { applied: number; label: string } {
  const applied =
    (search.min !== undefined || search.max !== undefined ? 1 : 0) +
    parseCategories(search.categories).length;
  return { applied, label: applied > 0 ? `Filters, ${applied} applied` : 'Filters' };
}
