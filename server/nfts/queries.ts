import { and, asc, count, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
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
export const preparePurchasesPage = (db: Database) =>
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
export const preparePurchasesCount = (db: Database) =>
  prepareNamed(
    db
      .select({ total: count() })
      .from(nftPurchases)
      .leftJoin(nfts, eq(nfts.id, nftPurchases.nftId))
      .leftJoin(blueprints, eq(blueprints.flowBlueprintId, nfts.blueprintId))
      .where(purchaseFilter()),
    'nft_purchases_count',
  );

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
