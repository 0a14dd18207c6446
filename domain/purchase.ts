import type { DateValue } from './dates';
import type { OrderCompleteSearch } from './orderComplete';

export {
  type OrderCompleteSearch,
  type PurchaseLookup,
  parseOrderCompleteSearch,
  purchaseMatches,
  queryText,
} from './orderComplete';

/**
 * A purchase as GET nfts/purchases answers it (the caller's own), shared by the server's JSON and
 * the purchase-complete page. Money in cents.
 */
export interface PurchaseJson {
  id: string;
  transactionId: string;
  /** How it was bought: saleListing (a resale), directPurchase, … */
  type: string;
  amount: number;
  purchasedOn: DateValue;
  /** The wallet the NFT went to. */
  walletAddress: string;
  nft: {
    /** The chain token id. */
    id: string;
    /** The edition; null when Vitrine has not seen the NFT yet. */
    seriesNumber: number | null;
    /** The NFT's own metadata (its name and image when no blueprint of ours describes it). */
    metadata: Record<string, string>;
    blueprint: {
      id: string;
      title: string;
      previewImageUrl: string | null;
      storefront: { id: string; name: string };
    } | null;
  };
  /** Vitrine's blueprint (uuid) the NFT was minted from, when Vitrine knows it. */
  blueprintId: string | null;
  /** The pack bought (uuid), when the NFT came from a pack order. */
  blueprintPackId: string | null;
  /** The resale listing (sale_listings.id) the purchase completed, if it was one. */
  nftSaleListingId: string | null;
  /** The order of new editions the purchase came from; null for a resale. */
  order: PurchaseOrder | null;
}

/**
 * An order of new editions as a purchase of it tells it: what was bought (a blueprint, or a pack
 * with its cover), what the whole order cost, and every edition it minted, in chain id order. A
 * pack's order has one purchase per edition, each carrying the same order.
 */
export interface PurchaseOrder {
  id: string;
  item: { kind: 'blueprint' | 'pack'; id: string; title: string; coverImageUrl: string | null };
  /** Cents: the price paid for the whole order (a pack's, not one card's share). */
  amount: number;
  editions: PurchasedEdition[];
}
/** An edition an order minted. */
export interface PurchasedEdition {
  /** The chain token id. */
  nftId: string;
  blueprintId: string;
  title: string;
  previewImageUrl: string | null;
  seriesNumber: number;
}

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
