import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { PUBLIC_STATES } from '#domain/products';
import {
  blueprintCardColumns,
  packSummaryColumns,
  publicPackOf,
  storefrontSummaryColumns,
} from '../catalog/json';
import type { Executor } from '../db';
import { isoText } from '../db/rows';
import { blueprintPacks, blueprints, favorites, MARKET_WHERE, storefronts } from '../db/schema';

/** Saved items are shown while visitors may see them (MARKET_WHERE); hidden ones wait unseen. */
const shown = sql.raw(MARKET_WHERE);

/** A blueprint one may save: one visitors may see (visible, enabled storefront, public state). */
export async function savable(db: Executor, blueprintId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: blueprints.id })
    .from(blueprints)
    .where(
      and(
        eq(blueprints.id, blueprintId),
        eq(blueprints.visible, true),
        eq(blueprints.storefrontEnabled, true),
        inArray(blueprints.state, PUBLIC_STATES),
      ),
    );
  return row !== undefined;
}

export async function countFavorites(db: Executor, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(favorites).where(eq(favorites.userId, userId));
  return Number(row?.n ?? 0);
}

/** Saves the item; saving it again keeps the first row (and its time). Answers whether it was new. */
export async function addFavorite(db: Executor, userId: string, blueprintId: string, at: Date) {
  const added = await db
    .insert(favorites)
    .values({ userId, blueprintId, createdAt: at })
    .onConflictDoNothing()
    .returning({ id: favorites.blueprintId });
  return added.length > 0;
}

export async function removeFavorite(db: Executor, userId: string, blueprintId: string) {
  await db.delete(favorites).where(and(eq(favorites.userId, userId), eq(favorites.blueprintId, blueprintId)));
}

/** One page of the user's shown saved items, newest first, with storefronts and packs; and how many. */
export async function favoritesPage(db: Executor, userId: string, offset: number, limit: number) {
  const mine = and(eq(favorites.userId, userId), shown);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        card: blueprintCardColumns,
        storefront: storefrontSummaryColumns,
        pack: packSummaryColumns,
        favoritedAt: isoText(favorites.createdAt),
      })
      .from(favorites)
      .innerJoin(blueprints, eq(blueprints.id, favorites.blueprintId))
      .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
      .leftJoin(blueprintPacks, publicPackOf)
      .where(mine)
      .orderBy(desc(favorites.createdAt), desc(favorites.blueprintId))
      .offset(offset)
      .limit(limit),
    db
      .select({ n: count() })
      .from(favorites)
      .innerJoin(blueprints, eq(blueprints.id, favorites.blueprintId))
      .where(mine),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** The blueprint ids of every item the user saved (at most FAVORITES_MAX). */
export async function favoriteIds(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: favorites.blueprintId })
    .from(favorites)
    .where(eq(favorites.userId, userId))
    .orderBy(desc(favorites.createdAt));
  return rows.map((r) => r.id);
}
