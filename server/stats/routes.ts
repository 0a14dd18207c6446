import { HomeTrending } from '#domain/responses/home';
import { StorefrontStats } from '#domain/responses/stats';
import { StorefrontStatsParams } from '#domain/schemas/stats';
import type { Services } from '../deps';
import { defineRoute, notFound, type Route } from '../http';
import { findStorefront } from '../storefronts/queries';
import { createHomeLists } from './home';
import { statsJson, storefrontStatsRow } from './queries';
import { refreshStorefrontStats } from './refresh';

/**
 * Storefront stats and Home's trending lists: both read the summaries the job worker refreshes every
 * minute (server/stats/refresh.ts); Home's lists are kept in memory for a minute besides.
 */
export function statsRoutes(s: Services): Route[] {
  const home = createHomeLists(s.db, s.clock);
  return [
    defineRoute({
      method: 'get',
      path: '/storefronts/{id}/stats',
      tag: 'storefronts',
      auth: 'optional',
      summary:
        'A storefront’s floor price, volume and sale count over 24 h, 7 d and all time, owners and NFTs listed (cents; refreshed every minute)',
      params: StorefrontStatsParams,
      response: StorefrontStats,
      responses: {
        200: 'the figures',
        404: 'No such storefront, or a path that names none (a disabled one only for its owner)',
      },
      async handler(c, { params }) {
        const storefront = await findStorefront(s.db, params.id);
        if (!storefront || (!storefront.enabled && c.get('user')?.id !== storefront.ownerId))
          throw notFound();
        let row = await storefrontStatsRow(s.db, storefront.id);
        // A storefront newer than the last refresh is counted now, once.
        if (!row) {
          await refreshStorefrontStats(s.db, storefront.id, s.clock());
          row = await storefrontStatsRow(s.db, storefront.id);
        }
        return c.json(statsJson(storefront.id, row));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/home/trending',
      tag: 'storefronts',
      summary:
        'Home’s lists: up to 8 items with the most sales in the last 24 h (ties by volume) and up to 6 storefronts with the most volume in the last 7 days; made at most once a minute',
      response: HomeTrending,
      responses: { 200: '{ items, storefronts, updatedAt }' },
      async handler(c) {
        return c.json(await home.get());
      },
    }),
  ];
}
