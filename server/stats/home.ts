import type { HomeTrending } from '#domain/responses/home';
import type { Executor } from '../db';
import { topStorefronts, trendingItems } from './queries';
import { STATS_REFRESH_MS } from './refresh';

/** Home's lists: "Trending now" and "Top storefronts this week". */
export const HOME_TRENDING_ITEMS = 8;
export const HOME_TOP_STOREFRONTS = 6;

/**
 * Home's two lists kept in memory: made from the summaries at most once a minute (by the app's
 * clock) and shared by every page view in between, so a view of Home costs no query. Views that
 * arrive while the lists are being made wait for that one making.
 */
export function createHomeLists(db: Executor, clock: () => Date) {
  let kept: { lists: HomeTrending; madeAt: number } | undefined;
  let making: Promise<HomeTrending> | undefined;
  const make = async () => {
    const now = clock();
    const [items, storefronts] = await Promise.all([
      trendingItems(db, HOME_TRENDING_ITEMS),
      topStorefronts(db, HOME_TOP_STOREFRONTS),
    ]);
    const lists = { items, storefronts, updatedAt: now.toISOString() };
    kept = { lists, madeAt: now.getTime() };
    return lists;
  };
  return {
    get(): Promise<HomeTrending> {
      if (kept && clock().getTime() - kept.madeAt < STATS_REFRESH_MS) return Promise.resolve(kept.lists);
      making ??= make().finally(() => {
        making = undefined;
      });
      return making;
    },
  };
}
