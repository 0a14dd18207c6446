import { and, asc, count, desc, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { NftListQuery } from '#domain/schemas/nfts';
import { type Database, type Executor, prepareNamed } from '../db';
import {
  blueprintPacks,
  blueprints,
  nftPurchases,
  nfts,
  orderItems,
  orders,
  saleListings,
  storefronts,
  users,
} from '../db/schema';

/**
 * The SQL of the NFT routes that is prepared once per database: a page of the caller's purchases
 * and their count.
 */

/** The caller's purchases of GET /nfts/purchases, optionally of one storefront or blueprint. */
const purchaseFilter = () =>
  and(
    eq(nftPurchases.buyerId, sql.placeholder('buyerId')),
    or(
      sql`${sql.placeholder('storefrontId')}::uuid is null`,
      eq(blueprints.storefrontId, sql.placeholder('storefrontId')),
    ),
    or(
      sql`${sql.placeholder('blueprintId')}::uuid is null`,
      eq(blueprints.id, sql.placeholder('blueprintId')),
    ),
  );

/**
 * A page of the caller's purchases, newest first, each with its total count: the NFT bought, the
 * blueprint it was minted from (Vitrine's, if any) with its storefront, the resale listing the
 * purchase completed (if it was one), and the order of new editions it came from (if it did) with
 * its pack's cover when it bought a pack. Every join matches at most one row, so the window count
 * is the number of purchases.
 */
const preparePurchasesPage = (db: Database) =>
  prepareNamed(
    db
      .select({
        purchase: nftPurchases,
        nft: { id: nfts.id, serialNumber: nfts.serialNumber, metadata: nfts.metadata },
        blueprint: {
          id: blueprints.id,
          title: blueprints.title,
          previewImageUrl: blueprints.previewImageUrl,
        },
        storefront: { id: storefronts.id, name: storefronts.name },
        listingId: saleListings.id,
        order: {
          id: orders.id,
          itemKind: orders.itemKind,
          itemId: orders.itemId,
          title: orders.title,
          amount: orders.amount,
        },
        packCoverImageUrl: blueprintPacks.coverImageUrl,
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(nftPurchases)
      .leftJoin(nfts, eq(nfts.id, nftPurchases.nftId))
      .leftJoin(blueprints, eq(blueprints.flowBlueprintId, nfts.blueprintId))
      .leftJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
      .leftJoin(saleListings, eq(saleListings.blockchainListingId, nftPurchases.blockchainListingId))
      .leftJoin(orders, eq(orders.id, nftPurchases.orderId))
      .leftJoin(blueprintPacks, and(eq(orders.itemKind, 'pack'), eq(blueprintPacks.id, orders.itemId)))
      .where(purchaseFilter())
      .orderBy(desc(nftPurchases.purchasedOn), desc(nftPurchases.id))
      .offset(sql.placeholder('offset'))
      .limit(sql.placeholder('limit')),
    'nft_purchases_page',
  );

/** How many purchases the filter of preparePurchasesPage matches. */
const preparePurchasesCount = (db: Database) =>
  prepareNamed(
    db
      .select({ total: count() })
      .from(nftPurchases)
      .leftJoin(nfts, eq(nfts.id, nftPurchases.nftId))
      .leftJoin(blueprints, eq(blueprints.flowBlueprintId, nfts.blueprintId))
      .where(purchaseFilter()),
    'nft_purchases_count',
  );

/** The statements of a purchases page, prepared once per database (when first used). */
const purchaseStatements = new WeakMap<
  Database,
  { page: ReturnType<typeof preparePurchasesPage>; count?: ReturnType<typeof preparePurchasesCount> }
>();

/** A page of the caller's purchases (preparePurchasesPage) and how many there are in all. */
export async function purchasesPage(
  db: Database,
  page: {
    buyerId: string;
    storefrontId: string | null;
    blueprintId: string | null;
    offset: number;
    limit: number;
  },
) {
  let statements = purchaseStatements.get(db);
  if (!statements) {
    statements = { page: preparePurchasesPage(db) };
    purchaseStatements.set(db, statements);
  }
  const rows = await statements.page.execute(page);
  // The window count comes with the rows: a page past the end counts on its own.
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && page.offset > 0) {
    statements.count ??= preparePurchasesCount(db);
    const [counted] = await statements.count.execute(page);
    total = counted?.total ?? 0;
  }
  return { rows, total };
}

export type PurchasePageRow = Awaited<ReturnType<typeof purchasesPage>>['rows'][number];

/**
 * The minted editions of the given orders, in chain id order within each order: what a pack's
 * purchase shows of every card it minted.
 */
export function mintedEditions(db: Executor, orderIds: string[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      orderId: orderItems.orderId,
      nftId: orderItems.nftId,
      seriesNumber: orderItems.serialNumber,
      blueprintId: orderItems.blueprintId,
      title: blueprints.title,
      previewImageUrl: blueprints.previewImageUrl,
    })
    .from(orderItems)
    .innerJoin(blueprints, eq(blueprints.id, orderItems.blueprintId))
    .where(and(inArray(orderItems.orderId, orderIds), isNotNull(orderItems.nftId)))
    .orderBy(asc(orderItems.orderId), asc(orderItems.flowBlueprintId));
}

/**
 * A page of NFTs by owner (wallet address, or a user's wallet), status, blueprint and purchase type,
 * sorted by the active listing's price (unlisted last), the edition, or the latest purchase; and
 * their total. Null when the owner named by user id has no wallet.
 */
export async function nftPage(db: Executor, query: NftListQuery) {
  const where: SQL[] = [];
  if (query.status) where.push(eq(nfts.status, query.status));
  if (query.blueprintId) where.push(eq(nfts.blueprintId, Number(query.blueprintId)));
  if (query.owner) where.push(eq(nfts.owner, query.owner));
  if (query.ownerId) {
    const [u] = await db.select().from(users).where(eq(users.id, query.ownerId));
    if (!u?.walletAddress) return null;
    where.push(eq(nfts.owner, u.walletAddress));
  }
  if (query.nftPurchaseType)
    where.push(
      sql`exists (select 1 from ${nftPurchases} where ${nftPurchases.nftId} = ${nfts.id} and ${nftPurchases.type} = ${query.nftPurchaseType})`,
    );
  const filter = where.length ? and(...where) : undefined;
  const dir = query['sort[direction]'] === 'desc' ? sql`desc` : sql`asc`;
  const listingPrice = sql`(select ${saleListings.price} from ${saleListings} where ${saleListings.nftId} = ${nfts.id}
    and ${saleListings.status} = 'active' and ${saleListings.seller} = ${nfts.owner} limit 1)`;
  const purchasedOn = sql`(select max(${nftPurchases.purchasedOn}) from ${nftPurchases} where ${nftPurchases.nftId} = ${nfts.id})`;
  const order =
    query['sort[column]'] === 'activeSaleListing.price'
      ? [sql`${listingPrice} ${dir} nulls last`, asc(nfts.id)]
      : query['sort[column]'] === 'seriesNumber'
        ? [sql`${nfts.serialNumber} ${dir}`, asc(nfts.blueprintId)]
        : query['sort[column]'] === 'nftPurchase.purchasedOn'
          ? [sql`${purchasedOn} ${dir} nulls last`, asc(nfts.id)]
          : [asc(nfts.blueprintId), asc(nfts.serialNumber)];
  const rows = await db
    .select()
    .from(nfts)
    .where(filter)
    .orderBy(...order)
    .offset(query.from - 1)
    .limit(query.to - query.from + 1);
  const [{ total }] = (await db.select({ total: count() }).from(nfts).where(filter)) as [{ total: number }];
  return { rows, total: Number(total) };
}

/** An NFT by its chain token id. */
export async function findNft(db: Executor, id: string) {
  const [row] = await db.select().from(nfts).where(eq(nfts.id, id));
  return row;
}

/** A sale listing by its id. */
export async function findListing(db: Executor, id: string) {
  const [row] = await db.select().from(saleListings).where(eq(saleListings.id, id));
  return row;
}

/** A sale listing by its chain listing id. */
export async function listingOnChain(db: Executor, blockchainListingId: string) {
  const [row] = await db
    .select()
    .from(saleListings)
    .where(eq(saleListings.blockchainListingId, blockchainListingId));
  return row;
}

/** The purchase a transaction recorded, if any. */
export async function purchaseOfTransaction(db: Executor, transactionId: string) {
  const [row] = await db.select().from(nftPurchases).where(eq(nftPurchases.transactionId, transactionId));
  return row;
}
