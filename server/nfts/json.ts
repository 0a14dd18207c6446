import { and, desc, eq } from 'drizzle-orm';
import type { NftJson } from '#domain/nft';
import { blueprintJson } from '../catalog/json';
import type { PurchaseRow } from '../chain/facts';
import type { Executor } from '../db';
import { blueprints, nftPurchases, type nfts, saleListings, storefronts, users } from '../db/schema';

/**
 * NFTs, their sale listings and their purchases as the API answers them.
 */

type NftRow = typeof nfts.$inferSelect;
type ListingRow = typeof saleListings.$inferSelect;
export function purchaseJson(p: PurchaseRow) {
  return {
    id: p.id,
    transactionId: p.transactionId,
    nft: { id: p.nftId },
    amount: p.amount,
    type: p.type,
    blockchainListingId: p.blockchainListingId,
    purchasedOn: p.purchasedOn.toISOString(),
  };
}

export function listingJson(l: ListingRow) {
  return {
    id: l.id,
    blockchainListingId: l.blockchainListingId,
    price: l.price,
    nft: { id: l.nftId },
    seller: l.seller,
    status: l.status,
    purchasedBy: l.purchasedBy,
    listedOn: l.listedOn.toISOString(),
    completedOn: l.completedOn?.toISOString() ?? null,
  };
}

export async function nftJson(db: Executor, n: NftRow): Promise<NftJson> {
  const [owner] = await db
    .select({ id: users.id, username: users.username, avatarUrl: users.avatarUrl })
    .from(users)
    .where(eq(users.walletAddress, n.owner));
  const [listing] = await db
    .select()
    .from(saleListings)
    .where(
      and(eq(saleListings.nftId, n.id), eq(saleListings.status, 'active'), eq(saleListings.seller, n.owner)),
    );
  const [purchase] = await db
    .select()
    .from(nftPurchases)
    .where(eq(nftPurchases.nftId, n.id))
    .orderBy(desc(nftPurchases.purchasedOn))
    .limit(1);
  const [blueprint] = await db
    .select({ blueprint: blueprints, storefront: storefronts })
    .from(blueprints)
    .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
    .where(eq(blueprints.flowBlueprintId, n.blueprintId));
  return {
    id: n.id,
    blueprint: blueprint ? blueprintJson(blueprint.blueprint, blueprint.storefront) : null,
    blueprintId: String(n.blueprintId),
    seriesNumber: n.serialNumber,
    serialNumber: n.serialNumber,
    metadata: n.metadata,
    status: n.status,
    owner: {
      id: owner?.id ?? null,
      username: owner?.username ?? null,
      avatarUrl: owner?.avatarUrl ?? null,
      wallet: { walletAddress: n.owner },
    },
    activeSaleListing: listing
      ? { id: listing.id, price: listing.price, blockchainListingId: listing.blockchainListingId }
      : null,
    nftPurchase: purchase
      ? { amount: purchase.amount, purchasedOn: purchase.purchasedOn.toISOString() }
      : null,
  };
}
