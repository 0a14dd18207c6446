import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { StorefrontStats } from '#domain/responses/stats';
import {
  blueprintCardColumns,
  blueprintJson,
  packSummaryColumns,
  publicPackOf,
  storefrontSummary,
  storefrontSummaryColumns,
} from '../catalog/json';
import type { Executor } from '../db';
import { blueprintPacks, blueprints, MARKET_WHERE, storefrontStats, storefronts } from '../db/schema';

/** The reads of the stats summaries (server/stats/refresh.ts writes them): one indexed lookup each. */

type StatsRow = typeof storefrontStats.$inferSelect;

/** A storefront's figures as the API answers them; a storefront not counted yet has none (zeros). */
export function statsJson(storefrontId: string, row: StatsRow | undefined): StorefrontStats {
  return {
    storefrontId,
    floor: row?.floor ?? null,
    volume24h: row?.volume24h ?? 0,
    volume7d: row?.volume7d ?? 0,
    volumeAllTime: row?.volumeAll ?? 0,
    sales24h: row?.sales24h ?? 0,
    sales7d: row?.sales7d ?? 0,
    salesAllTime: row?.salesAll ?? 0,
    owners: row?.owners ?? 0,
    listed: row?.listed ?? 0,
    updatedAt: row ? row.refreshedAt.toISOString() : null,
  };
}

export async function storefrontStatsRow(db: Executor, storefrontId: string): Promise<StatsRow | undefined> {
  const [row] = await db.select().from(storefrontStats).where(eq(storefrontStats.storefrontId, storefrontId));
  return row;
}

/** The figures of several storefronts (a page of Browse storefronts), by id. */
export async function statsByStorefront(db: Executor, ids: string[]): Promise<Map<string, StorefrontStats>> {
  const rows = ids.length
    ? await db.select().from(storefrontStats).where(inArray(storefrontStats.storefrontId, ids))
    : [];
  const byId = new Map(rows.map((r) => [r.storefrontId, r]));
  return new Map(ids.map((id) => [id, statsJson(id, byId.get(id))]));
}

/**
 * The items with the most sales in the last 24 hours (ties by their volume), visitors may see, as
 * of the last refresh: the top of the Trending sort, read backwards along its partial index.
 */
export async function trendingItems(db: Executor, limit: number) {
  const rows = await db
    .select({ card: blueprintCardColumns, storefront: storefrontSummaryColumns, pack: packSummaryColumns })
    .from(blueprints)
    .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
    .leftJoin(blueprintPacks, publicPackOf)
    .where(and(sql.raw(MARKET_WHERE), gt(blueprints.trending, 0)))
    .orderBy(desc(blueprints.trending), desc(blueprints.id))
    .limit(limit);
  return rows.map((r) => blueprintJson(r.card, r.storefront, r.pack));
}

/** The enabled storefronts with the most volume in the last 7 days, as of the last refresh. */
export async function topStorefronts(db: Executor, limit: number) {
  const rows = await db
    .select({ storefront: storefrontSummaryColumns, stats: storefrontStats })
    .from(storefrontStats)
    .innerJoin(storefronts, eq(storefronts.id, storefrontStats.storefrontId))
    .where(and(gt(storefrontStats.volume7d, 0), eq(storefronts.enabled, true)))
    .orderBy(desc(storefrontStats.volume7d), desc(storefrontStats.storefrontId))
    .limit(limit);
  return rows.map((r) => ({
    storefront: storefrontSummary(r.storefront),
    stats: statsJson(r.stats.storefrontId, r.stats),
  }));
}
