import * as v from 'valibot';
import { Count, DateTime } from './common';

/**
 * A storefront's sales figures (GET storefronts/{id}/stats), as of its last refresh (at least every
 * minute), money in cents. A sale is a purchase with a price: a new edition (its paid order), a
 * resale, an accepted offer. Windows end at `updatedAt`: the last 24 hours, the last 7 days, all time.
 */
export const StorefrontStats = v.object({
  storefrontId: v.string(),
  /** The lowest live price among its new editions on sale and its NFTs' resale listings; null: nothing for sale. */
  floor: v.nullable(Count),
  volume24h: Count,
  volume7d: Count,
  volumeAllTime: Count,
  sales24h: Count,
  sales7d: Count,
  salesAllTime: Count,
  /** Distinct holders of its NFTs. */
  owners: Count,
  /** Its NFTs listed for resale. */
  listed: Count,
  /** When the figures were counted; null: not counted yet (a storefront newer than the last refresh). */
  updatedAt: v.nullable(DateTime),
});
export type StorefrontStats = v.InferOutput<typeof StorefrontStats>;
