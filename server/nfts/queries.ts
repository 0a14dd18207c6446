import { and, count, desc, eq, or, sql } from 'drizzle-orm';
import { type Database, prepareNamed } from '../db';
import { blueprints, nftPurchases, nfts, orders, saleListings, storefronts } from '../db/schema';

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
 * blueprint it was minted from (Vitrine's, if any) with its storefront, and the resale listing the
 * purchase completed (if it was one). Every join matches at most one row, so the window count is
 * the number of purchases.
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
        order: { itemKind: orders.itemKind, itemId: orders.itemId },
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(nftPurchases)
      .leftJoin(nfts, eq(nfts.id, nftPurchases.nftId))
      .leftJoin(blueprints, eq(blueprints.flowBlueprintId, nfts.blueprintId))
      .leftJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
      .leftJoin(saleListings, eq(saleListings.blockchainListingId, nftPurchases.blockchainListingId))
      .leftJoin(orders, eq(orders.id, nftPurchases.orderId))
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
