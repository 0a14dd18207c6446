import type { BlueprintJson } from './catalog';
import type { ProductStatus } from './productsSearch';

export {
  PRODUCTS_PAGE_SIZE,
  type ProductStatus,
  type ProductsSearch,
  PUBLIC_STATES,
  parseProductsSearch,
  productFilter,
  productStatuses,
} from './productsSearch';

/**
 * The dashboard's product actions, by state: created or available: edit, publish; active or printed:
 * view, sales, hide/show, cancel; soldOut or canceled: view, sales, hide/show; any other: view. An
 * item on its way to the chain offers none.
 */
export type ProductAction = 'edit' | 'publish' | 'view' | 'sales' | 'hide' | 'show' | 'cancel';

/** Whether the item is being put on chain (created with a status): a spinner, no actions. */
export const isPrinting = (b: Pick<BlueprintJson, 'state' | 'status'>) =>
  (b.state === 'created' || b.state === 'available') && b.status !== null;

export function productActions(b: Pick<BlueprintJson, 'state' | 'status' | 'visible'>): ProductAction[] {
  if (isPrinting(b)) return [];
  const toggle: ProductAction = b.visible ? 'hide' : 'show';
  switch (b.state) {
    case 'created':
    case 'available':
      return ['edit', 'publish'];
    case 'active':
    case 'printed':
      return ['view', 'sales', toggle, 'cancel'];
    case 'soldOut':
    case 'canceled':
      return ['view', 'sales', toggle];
    default:
      return ['view'];
  }
}

export const productStatusLabels: Record<ProductStatus, string> = {
  all: 'All',
  draft: 'Draft',
  active: 'Active',
  hidden: 'Hidden',
  canceled: 'Canceled',
};
