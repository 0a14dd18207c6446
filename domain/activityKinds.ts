/**
 * The kinds of activity entries: a sale (a new edition bought, or a resale listing bought), a resale
 * listing made or removed, a mint, a transfer between wallets outside a sale, an offer made, and an
 * offer accepted (a sale by offer). A module of its own, importing nothing: the pages' search
 * parsing (domain/activitySearch.ts) loads with every page.
 */
export const ACTIVITY_KINDS = [
  'sale',
  'listing',
  'delisting',
  'mint',
  'transfer',
  'offer',
  'offerAccepted',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
