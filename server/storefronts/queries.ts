import { and, asc, desc, eq, exists, inArray, type SQL, sql } from 'drizzle-orm';
import { PUBLIC_STATES } from '#domain/products';
import type { StorefrontListQuery, StorefrontReportInput } from '#domain/schemas/catalog';
import type { StorefrontCreateInput, StorefrontPatchInput } from '#domain/schemas/storefronts';
import { likePattern } from '../blueprints/queries';
import type { Executor } from '../db';
import { blueprints, storefrontReports, storefrontStats, storefronts } from '../db/schema';

/** The SQL of the storefront routes: the public list, one storefront by its keys, writes and reports. */

export type StorefrontRow = typeof storefronts.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A page of enabled storefronts (name search, categories, whether they show an item on sale),
 * by created date or volume, and the total that matches.
 */
export async function listStorefronts(
  db: Executor,
  query: StorefrontListQuery,
): Promise<{ rows: StorefrontRow[]; total: number }> {
  const where: SQL[] = [eq(storefronts.enabled, true)];
  if (query.search) where.push(sql`lower(${storefronts.name}) like ${likePattern(query.search)}`);
  if (query.categories?.length) where.push(inArray(storefronts.category, query.categories));
  const hasItems = exists(
    db
      .select({ one: sql`1` })
      .from(blueprints)
      .where(
        and(
          eq(blueprints.storefrontId, storefronts.id),
          eq(blueprints.visible, true),
          inArray(blueprints.state, PUBLIC_STATES),
        ),
      ),
  );
  if (query.hasBlueprints === true) where.push(hasItems);
  if (query.hasBlueprints === false) where.push(sql`not ${hasItems}`);
  const filter = and(...where);
  const order = query['sort[direction]'] === 'asc' ? asc : desc;
  // By volume: all-time sales as of the stats refresh (a storefront not counted yet has none).
  const key =
    query['sort[column]'] === 'volume'
      ? sql`coalesce(${storefrontStats.volumeAll}, 0)`
      : storefronts.createdAt;
  const rows = await db
    .select({ storefront: storefronts })
    .from(storefronts)
    .leftJoin(storefrontStats, eq(storefrontStats.storefrontId, storefronts.id))
    .where(filter)
    .orderBy(order(key), order(storefronts.id))
    .offset(query.from - 1)
    .limit(query.to - query.from + 1);
  const [{ total }] = (await db
    .select({ total: sql<number>`count(*)::int` })
    .from(storefronts)
    .where(filter)) as [{ total: number }];
  return { rows: rows.map((r) => r.storefront), total: Number(total) };
}

export async function findStorefront(db: Executor, id: string): Promise<StorefrontRow | undefined> {
  const [row] = await db.select().from(storefronts).where(eq(storefronts.id, id));
  return row;
}

/** The owner's storefront (one per user). */
export async function storefrontOfOwner(db: Executor, userId: string): Promise<StorefrontRow | undefined> {
  const [row] = await db.select().from(storefronts).where(eq(storefronts.ownerId, userId));
  return row;
}

/** A storefront by its id, or by its vanity URL in any case. */
export async function storefrontByIdOrVanityUrl(
  db: Executor,
  key: string,
): Promise<StorefrontRow | undefined> {
  const where = UUID.test(key)
    ? eq(storefronts.id, key)
    : sql`lower(${storefronts.vanityUrl}) = ${key.toLowerCase()}`;
  const [row] = await db.select().from(storefronts).where(where);
  return row;
}

/** Inserts a storefront; a unique index it breaks (owner, name, vanity URL) throws. */
export async function insertStorefront(
  db: Executor,
  values: StorefrontCreateInput & { vanityUrl: string; ownerId: string; at: Date },
): Promise<StorefrontRow> {
  const { at, ...rest } = values;
  const [row] = await db
    .insert(storefronts)
    .values({ ...rest, createdAt: at, updatedAt: at })
    .returning();
  return row!;
}

/** Updates a storefront; a unique index it breaks (name, vanity URL) throws. */
export async function updateStorefront(
  db: Executor,
  id: string,
  patch: StorefrontPatchInput,
  at: Date,
): Promise<StorefrontRow> {
  const [row] = await db
    .update(storefronts)
    .set({ ...patch, updatedAt: at })
    .where(eq(storefronts.id, id))
    .returning();
  return row!;
}

/**
 * Records a user's report of a storefront, or answers undefined when the user reported it before: a
 * user reports a storefront once, and the unique index decides, so concurrent duplicates too.
 */
export async function insertReport(
  db: Executor,
  values: StorefrontReportInput & { userId: string; at: Date },
) {
  const { at, ...rest } = values;
  const [report] = await db
    .insert(storefrontReports)
    .values({ ...rest, createdAt: at })
    .onConflictDoNothing({ target: [storefrontReports.storefrontId, storefrontReports.userId] })
    .returning();
  return report;
}
