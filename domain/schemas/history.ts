import * as v from 'valibot';
import { DateTime } from '../responses/common';

/**
 * The history of an item (GET blueprints/{id}/history) or of one NFT (GET nfts/{id}/history): its
 * creation and its purchases, newest first, the creation last. Each entry names who did it by their
 * public name and avatar only (the identicon is drawn from `seed`, a wallet address or an id).
 */

/** The most purchases a history lists (the spec's "purchase history fetch 10 entries"). */
export const HISTORY_PURCHASES = 10;

export const historyTypes = ['creation', 'purchase'] as const;

export const HistoryEntry = v.object({
  id: v.string(),
  /** creation: the blueprint made by its storefront, or the NFT minted; purchase: a primary sale or a resale. */
  type: v.picklist(historyTypes),
  user: v.object({
    /** A buyer's username (else the wallet, shortened); a creator's storefront name. */
    name: v.pipe(v.string(), v.minLength(1)),
    avatarUrl: v.nullable(v.string()),
    seed: v.pipe(v.string(), v.minLength(1)),
  }),
  /** The edition; null for a blueprint's creation. */
  seriesNumber: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
  createdAt: DateTime,
});
export type HistoryEntry = v.InferOutput<typeof HistoryEntry>;

/** The answer of both history routes. */
export const HistoryAnswer = v.object({ results: v.array(HistoryEntry) });
export type HistoryAnswer = v.InferOutput<typeof HistoryAnswer>;
