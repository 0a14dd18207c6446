import * as v from 'valibot';
import { nftStatuses, saleListingStatuses } from '../schemas/nfts';
import { BlueprintJson, ShareImage } from './catalog';
import { Count, DateTime, pageOf } from './common';

/** NFTs, their resale listings and purchases as the product API answers them (money in cents). */

/** The NFT's own metadata (chain strings). */
const Metadata = v.record(v.string(), v.string());

export const NftOwner = v.object({
  id: v.nullable(v.string()),
  username: v.nullable(v.string()),
  avatarUrl: v.nullable(v.string()),
  wallet: v.object({ walletAddress: v.string() }),
});
export type NftOwner = v.InferOutput<typeof NftOwner>;

export const NftJson = v.object({
  /** The chain token id. */
  id: v.string(),
  /** The blueprint it was minted from, when Vitrine knows it. */
  blueprint: v.nullable(BlueprintJson),
  /** flowBlueprintId: the blueprint the NFT was minted from. */
  blueprintId: v.string(),
  seriesNumber: Count,
  /** The same edition under the chain's name. */
  serialNumber: Count,
  metadata: Metadata,
  status: v.picklist(nftStatuses),
  owner: NftOwner,
  activeSaleListing: v.nullable(v.object({ id: v.string(), price: Count, blockchainListingId: v.string() })),
  /** The latest purchase of it. */
  nftPurchase: v.nullable(v.object({ amount: Count, purchasedOn: DateTime })),
  /** The NFT page's link preview image. */
  shareImage: ShareImage,
});
export type NftJson = v.InferOutput<typeof NftJson>;
export const NftPage = pageOf(NftJson);

/** An edition an order minted. */
export const PurchasedEdition = v.object({
  /** The chain token id. */
  nftId: v.string(),
  blueprintId: v.string(),
  title: v.string(),
  previewImageUrl: v.nullable(v.string()),
  seriesNumber: Count,
});
export type PurchasedEdition = v.InferOutput<typeof PurchasedEdition>;

/**
 * An order of new editions as a purchase of it tells it: what was bought (a blueprint, or a pack
 * with its cover), what the whole order cost, and every edition it minted, in chain id order. A
 * pack's order has one purchase per edition, each carrying the same order.
 */
export const PurchaseOrder = v.object({
  id: v.string(),
  item: v.object({
    kind: v.picklist(['blueprint', 'pack']),
    id: v.string(),
    title: v.string(),
    coverImageUrl: v.nullable(v.string()),
  }),
  /** The price paid for the whole order (a pack's, not one card's share). */
  amount: Count,
  editions: v.array(PurchasedEdition),
});
export type PurchaseOrder = v.InferOutput<typeof PurchaseOrder>;

/** A purchase as GET nfts/purchases answers it (the caller's own). */
export const PurchaseJson = v.object({
  id: v.string(),
  transactionId: v.string(),
  /** How it was bought: saleListing (a resale), directPurchase, … */
  type: v.string(),
  amount: Count,
  purchasedOn: DateTime,
  /** The wallet the NFT went to. */
  walletAddress: v.string(),
  nft: v.object({
    /** The chain token id. */
    id: v.string(),
    /** The edition; null when Vitrine has not seen the NFT yet. */
    seriesNumber: v.nullable(Count),
    /** The NFT's own metadata (its name and image when no blueprint of ours describes it). */
    metadata: Metadata,
    blueprint: v.nullable(
      v.object({
        id: v.string(),
        title: v.string(),
        previewImageUrl: v.nullable(v.string()),
        storefront: v.object({ id: v.string(), name: v.string() }),
      }),
    ),
  }),
  /** Vitrine's blueprint (uuid) the NFT was minted from, when Vitrine knows it. */
  blueprintId: v.nullable(v.string()),
  /** The pack bought (uuid), when the NFT came from a pack order. */
  blueprintPackId: v.nullable(v.string()),
  /** The resale listing (sale_listings.id) the purchase completed, if it was one. */
  nftSaleListingId: v.nullable(v.string()),
  /** The order of new editions the purchase came from; null for a resale. */
  order: v.nullable(PurchaseOrder),
});
export type PurchaseJson = v.InferOutput<typeof PurchaseJson>;
export const PurchasePage = pageOf(PurchaseJson);

/** A resale listing. */
export const SaleListingJson = v.object({
  id: v.string(),
  blockchainListingId: v.string(),
  price: Count,
  nft: v.object({ id: v.string() }),
  seller: v.string(),
  status: v.picklist(saleListingStatuses),
  /** The buyer's address once a purchase completed it. */
  purchasedBy: v.nullable(v.string()),
  listedOn: DateTime,
  completedOn: v.nullable(DateTime),
});

/** A recorded purchase (nfts/purchases/actions/record). */
export const PurchaseRecord = v.object({
  id: v.string(),
  transactionId: v.string(),
  nft: v.object({ id: v.string() }),
  amount: Count,
  type: v.string(),
  blockchainListingId: v.nullable(v.string()),
  purchasedOn: DateTime,
});
export type PurchaseRecord = v.InferOutput<typeof PurchaseRecord>;

/** A purchase whose transaction is not sealed yet: the indexer records it once sealed. */
export const PendingPurchase = v.object({ status: v.literal('pending'), transactionId: v.string() });

export const PurchaseRecordAnswer = v.union([PurchaseRecord, PendingPurchase]);

/** An NFT the development tools minted. */
export const DevNft = v.object({ id: v.string(), blueprintId: v.string(), seriesNumber: Count });
