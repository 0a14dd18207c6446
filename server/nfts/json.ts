import { and, desc, eq } from 'drizzle-orm';
import type { NftJson } from '#domain/nft';
import type { PurchaseJson, PurchaseOrder } from '#domain/purchase';
import { blueprintJson } from '../catalog/json';
import type { PurchaseRow } from '../chain/facts';
import type { Executor } from '../db';
import { blueprints, nftPurchases, type nfts, saleListings, storefronts, users } from '../db/schema';
import { itemImagePath, nftCard, shareImage } from '../og/card';
import type { mintedEditions, PurchasePageRow } from './queries';

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
  const json: Omit<NftJson, 'shareImage'> = {
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
  return { ...json, shareImage: shareImage(itemImagePath(n.id), nftCard(json)) };
}

type Edition = Awaited<ReturnType<typeof mintedEditions>>[number];

/**
 * A page of the caller's purchases as GET /nfts/purchases answers it: each with its NFT, the
 * blueprint and storefront it came from, and the order of new editions it was part of, with every
 * edition that order minted (a pack's purchase tells all the cards it minted).
 */
export function purchaseListJson(rows: PurchasePageRow[], minted: Edition[]): PurchaseJson[] {
  const editions = new Map<string, Edition[]>();
  for (const e of minted) editions.set(e.orderId, [...(editions.get(e.orderId) ?? []), e]);
  const orderOf = (order: PurchasePageRow['order'], coverImageUrl: string | null): PurchaseOrder | null =>
    order && {
      id: order.id,
      item: { kind: order.itemKind, id: order.itemId, title: order.title, coverImageUrl },
      amount: order.amount,
      editions: (editions.get(order.id) ?? []).map((e) => ({
        nftId: e.nftId!,
        blueprintId: e.blueprintId,
        title: e.title,
        previewImageUrl: e.previewImageUrl,
        seriesNumber: e.seriesNumber!,
      })),
    };
  return rows.map(({ purchase, nft, blueprint, storefront, listingId, order, packCoverImageUrl }) => ({
    id: purchase.id,
    transactionId: purchase.transactionId,
    type: purchase.type,
    amount: purchase.amount,
    purchasedOn: purchase.purchasedOn.toISOString(),
    walletAddress: purchase.walletAddress,
    nft: {
      id: purchase.nftId,
      seriesNumber: nft?.serialNumber ?? null,
      metadata: nft?.metadata ?? {},
      blueprint:
        blueprint && storefront
          ? {
              id: blueprint.id,
              title: blueprint.title,
              previewImageUrl: blueprint.previewImageUrl,
              storefront: { id: storefront.id, name: storefront.name },
            }
          : null,
    },
    blueprintId: blueprint?.id ?? null,
    blueprintPackId: order?.itemKind === 'pack' ? order.itemId : null,
    nftSaleListingId: listingId,
    order: orderOf(order, packCoverImageUrl),
  }));
}
