import { toDate } from './dates';
import type { PurchaseJson } from './purchase';

/**
 * What every first load needs of the order-complete page: its URL (the route reads it) and whether
 * a purchase is the one it looks for (the nfts service asks). The purchase itself and the page's
 * other rules are in domain/purchase.ts (which re-exports this).
 */

/** What the purchase-complete page looks for: the item (`id` of kind `kind`) bought at or after `since`. */
export interface PurchaseLookup {
  id: string;
  kind: string;
  /** Epoch milliseconds. */
  since: number;
}

/** The purchase's id of the given kind: its blueprint, pack or resale listing. */
function itemId(purchase: PurchaseJson, kind: string): string | null {
  if (kind === 'blueprint') return purchase.blueprintId;
  if (kind === 'blueprintPack') return purchase.blueprintPackId;
  if (kind === 'nftSaleListing') return purchase.nftSaleListingId;
  return null;
}

/** Whether the purchase is of the item looked for, made at or after `since`. */
export function purchaseMatches(purchase: PurchaseJson, lookup: PurchaseLookup): boolean {
  return (
    itemId(purchase, lookup.kind) === lookup.id && toDate(purchase.purchasedOn).getTime() >= lookup.since
  );
}

/**
 * The query of /ordercomplete/{id}: kind, purchase time, edition and purchase method. The router
 * reads a value of digits as a number (and writes a text of digits in quotes), so the time and the
 * edition stay numbers when they came as numbers: links keep plain digits, `t=1763805570000`.
 */
export type OrderCompleteSearch = {
  e?: string;
  t?: string | number;
  serial?: string | number;
  type?: string;
  /** The order of new editions the purchase made (its id): the page follows it. */
  order?: string;
  /** A card purchase's charge id, and the 3-D Secure session the card provider added on return. */
  charge?: string;
  'cko-session-id'?: string;
};

/** A query value as text, or absent. */
export const queryText = (value: string | number | undefined): string | undefined =>
  value === undefined ? undefined : String(value);

/** The order-complete query: e and type as text, t and serial as text or finite numbers, each optional. */
export function parseOrderCompleteSearch(raw: Record<string, unknown>): OrderCompleteSearch {
  const search: OrderCompleteSearch = {};
  const text = (key: 'e' | 'type') => {
    if (typeof raw[key] === 'string') search[key] = raw[key];
  };
  const textOrNumber = (key: 't' | 'serial') => {
    const value = raw[key];
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))
      search[key] = value;
  };
  text('e');
  textOrNumber('t');
  textOrNumber('serial');
  text('type');
  if (typeof raw.order === 'string') search.order = raw.order;
  if (typeof raw.charge === 'string') search.charge = raw.charge;
  if (typeof raw['cko-session-id'] === 'string') search['cko-session-id'] = raw['cko-session-id'];
  return search;
}
