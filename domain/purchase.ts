import type { OrderCompleteSearch } from './orderComplete';
import type { PurchaseJson } from './responses/nfts';

export {
  type OrderCompleteSearch,
  type PurchaseLookup,
  parseOrderCompleteSearch,
  purchaseMatches,
  queryText,
} from './orderComplete';

/** A purchase as GET nfts/purchases answers it: its schema is in domain/responses/nfts.ts. */
export type { PurchasedEdition, PurchaseJson, PurchaseOrder } from './responses/nfts';

/** The title and image of what was bought: the blueprint's, else what the NFT's metadata names. */
export function purchasedItem({ nft }: Pick<PurchaseJson, 'nft'>) {
  return {
    title: nft.blueprint?.title || nft.metadata.title || nft.metadata.name || 'Collectible',
    previewImageUrl:
      nft.blueprint?.previewImageUrl || nft.metadata.previewImageUrl || nft.metadata.image || null,
  };
}

/** What the order-complete link's `id` names: a blueprint, a pack or a resale listing (query `e`). */
export const purchaseKinds = ['blueprint', 'blueprintPack', 'nftSaleListing'] as const;
export type PurchaseKind = (typeof purchaseKinds)[number];

/**
 * A purchase started on our own pages is looked for from this long before the buyer pressed buy:
 * the server's clock may run behind the browser's.
 */
export const PURCHASE_CLOCK_SKEW_MS = 15_000;

/**
 * The purchase time of an order-complete link (query `t`, epoch milliseconds), or null when it is
 * missing or not a whole number of milliseconds.
 */
export function parsePurchaseTime(t: string | null | undefined): number | null {
  if (typeof t !== 'string' || !/^\d{1,15}$/.test(t)) return null;
  return Number(t);
}

/**
 * Where a purchase started on our pages ends: /ordercomplete/{id} for the item bought, its purchase
 * time set PURCHASE_CLOCK_SKEW_MS before `startedAt`.
 */
export function orderCompleteTarget(purchase: {
  id: string;
  kind: PurchaseKind;
  startedAt: number;
  type: string;
  serial?: number | null;
}): { to: '/ordercomplete/$id'; params: { id: string }; search: OrderCompleteSearch } {
  const search: OrderCompleteSearch = {
    e: purchase.kind,
    t: purchase.startedAt - PURCHASE_CLOCK_SKEW_MS,
    type: purchase.type,
  };
  if (purchase.serial !== undefined && purchase.serial !== null) search.serial = purchase.serial;
  return { to: '/ordercomplete/$id', params: { id: purchase.id }, search };
}
