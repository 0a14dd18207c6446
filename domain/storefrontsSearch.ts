import { parseCategories } from './marketSearch';

/**
 * The browse-storefronts URL: search text, oldest first or most volume first (newest is the
 * default), a category.
 */
export interface StorefrontsSearch {
  q?: string;
  sort?: 'oldest' | 'volume';
  categories?: string;
}

export function parseStorefrontsSearch(raw: Record<string, unknown>): StorefrontsSearch {
  const out: StorefrontsSearch = {};
  if (typeof raw.q === 'string' && raw.q.trim()) out.q = raw.q.trim().slice(0, 100);
  if (raw.sort === 'oldest' || raw.sort === 'volume') out.sort = raw.sort;
  const categories = parseCategories(raw.categories);
  if (categories.length) out.categories = categories.join(',');
  return out;
}
