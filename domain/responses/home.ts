import * as v from 'valibot';
import { BlueprintJson, StorefrontSummary } from './catalog';
import { DateTime } from './common';
import { StorefrontStats } from './stats';

/** One of Home's top storefronts of the week: its card and figures. */
export const TopStorefront = v.object({ storefront: StorefrontSummary, stats: StorefrontStats });
export type TopStorefront = v.InferOutput<typeof TopStorefront>;

/**
 * GET home/trending: Home's two lists, made at most once a minute. `items`: up to 8 items with the
 * most sales in the last 24 hours (ties by their volume); `storefronts`: up to 6 storefronts with the
 * most volume in the last 7 days. Only items and storefronts with sales in the window are listed.
 */
export const HomeTrending = v.object({
  items: v.array(BlueprintJson),
  storefronts: v.array(TopStorefront),
  updatedAt: DateTime,
});
export type HomeTrending = v.InferOutput<typeof HomeTrending>;
