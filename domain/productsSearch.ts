import type { BlueprintState } from './enums';
import type { BlueprintFilter } from './filters';

/**
 * The products list's URL and its query to the API, and the states visitors see: the routes read
 * them in every first load. The products' actions and labels are in domain/products.ts (which
 * re-exports this).
 */

/** States visitors see (the server's public states): the storefront page and the preview show these. */
export const PUBLIC_STATES: BlueprintState[] = ['available', 'active', 'printed', 'soldOut'];

/** The status filter of the dashboard's products list. */
export const productStatuses = ['all', 'draft', 'active', 'hidden', 'canceled'] as const;
export type ProductStatus = (typeof productStatuses)[number];
const statusFilter: Record<ProductStatus, { states?: BlueprintState[]; visible?: boolean }> = {
  all: {},
  draft: { states: ['created'] },
  active: { states: ['available', 'active', 'printed'] },
  hidden: { visible: false },
  canceled: { states: ['canceled'] },
};

/** Products per page of the list (the product API's default page size). */
export const PRODUCTS_PAGE_SIZE = 50;

/** The owner's list query for a search text, a status and a page (1-based), newest first. */
export function productFilter(
  storefrontId: string,
  search: string | undefined,
  status: ProductStatus,
  page = 1,
): BlueprintFilter {
  return {
    storefrontId,
    search: search?.trim() || undefined,
    ...statusFilter[status],
    sort: 'createdAt',
    direction: 'desc',
    from: (page - 1) * PRODUCTS_PAGE_SIZE + 1,
    to: page * PRODUCTS_PAGE_SIZE,
  };
}

/** /dashboard/products?q&status&page&edit (edit: a blueprint id, or "new" for the add form). */
export interface ProductsSearch {
  q?: string;
  status?: ProductStatus;
  page?: number;
  edit?: string;
}
export function parseProductsSearch(raw: Record<string, unknown>): ProductsSearch {
  const out: ProductsSearch = {};
  if (typeof raw.q === 'string' && raw.q.trim()) out.q = raw.q.slice(0, 200);
  if (typeof raw.status === 'string' && (productStatuses as readonly string[]).includes(raw.status))
    out.status = raw.status as ProductStatus;
  const page = Number(raw.page);
  if (Number.isSafeInteger(page) && page > 1) out.page = page;
  if (typeof raw.edit === 'string' && /^(new|[0-9a-f-]{36})$/i.test(raw.edit)) out.edit = raw.edit;
  return out;
}
