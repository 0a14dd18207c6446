import * as v from 'valibot';
import { BIGINT_ID_MAX, decimalString, fieldObject, queryInteger, UINT64_MAX } from '../validation';
import { FlowAddress } from './accounts';

/** Inputs of the nfts, nfts/sale-listings and nfts/purchases APIs. */

/** A UInt64 kept as text (token and listing ids) as a decimal string; numbers are accepted. */
const uint64 = (field: string) => decimalString(field, UINT64_MAX);
/**
 * A blueprint id or edition as a decimal string; numbers are accepted. UInt64 on chain, but kept in
 * bigint columns read as numbers: at most BIGINT_ID_MAX, and no larger one names anything here.
 */
const bigintId = (field: string) => decimalString(field, BIGINT_ID_MAX);

const wallet = v.pipe(FlowAddress);

export const nftStatuses = ['minting', 'parked', 'forSale'] as const;
export const saleListingStatuses = ['active', 'completed', 'cancelled'] as const;

/** A token id: a UInt64 in decimal. */
export const NftIdParams = v.object({
  id: v.pipe(
    v.string(),
    v.regex(/^\d{1,20}$/),
    v.check((s) => /^\d{1,20}$/.test(s) && BigInt(s) <= UINT64_MAX),
  ),
});
export const SaleListingIdParams = v.object({ id: v.pipe(v.string(), v.uuid()) });

/** NFT list sort columns, each ascending or descending (without one: by blueprint, then edition). */
export const nftSortColumns = ['activeSaleListing.price', 'seriesNumber', 'nftPurchase.purchasedOn'] as const;

/** GET nfts: paging from/to (1-based, inclusive; default 1..50, at most 100 per page) and filters. */
export const NftListQuery = v.pipe(
  v.object({
    from: v.optional(queryInteger('from', 1), '1'),
    to: v.optional(queryInteger('to', 1)),
    status: v.optional(v.picklist(nftStatuses, 'INVALID_VALUE.status')),
    blueprintId: v.optional(bigintId('blueprintId')),
    ownerId: v.optional(v.pipe(v.string('INVALID_VALUE.ownerId'), v.uuid('INVALID_VALUE.ownerId'))),
    owner: v.optional(
      v.pipe(v.string('INVALID_VALUE.owner'), v.regex(/^0x[0-9a-f]{16}$/, 'INVALID_VALUE.owner')),
    ),
    nftPurchaseType: v.optional(
      v.picklist(['saleListing', 'directPurchase'], 'INVALID_VALUE.nftPurchaseType'),
    ),
    'sort[column]': v.optional(v.picklist(nftSortColumns, 'INVALID_VALUE.sort[column]')),
    'sort[direction]': v.optional(v.picklist(['asc', 'desc'], 'INVALID_VALUE.sort[direction]'), 'asc'),
  }),
  v.transform((q) => ({ ...q, to: q.to ?? q.from + 49 })),
  v.check((q) => q.to >= q.from && q.to - q.from < 100, 'INVALID_VALUE.to'),
);
export type NftListQuery = v.InferOutput<typeof NftListQuery>;

/** The most purchases one GET nfts/purchases answers. */
export const NFT_PURCHASES_PAGE_MAX = 10;

/**
 * GET nfts/purchases: the caller's purchases, optionally of one storefront or blueprint (Vitrine's
 * uuids); paging from/to (1-based, inclusive; default 1..10, at most 10 per page).
 */
export const NftPurchaseListQuery = v.pipe(
  v.object({
    from: v.optional(queryInteger('from', 1), '1'),
    to: v.optional(queryInteger('to', 1)),
    storefrontId: v.optional(
      v.pipe(v.string('INVALID_VALUE.storefrontId'), v.uuid('INVALID_VALUE.storefrontId')),
    ),
    blueprintId: v.optional(
      v.pipe(v.string('INVALID_VALUE.blueprintId'), v.uuid('INVALID_VALUE.blueprintId')),
    ),
  }),
  v.transform((q) => ({ ...q, to: q.to ?? q.from + NFT_PURCHASES_PAGE_MAX - 1 })),
  v.check((q) => q.to >= q.from && q.to - q.from < NFT_PURCHASES_PAGE_MAX, 'INVALID_VALUE.to'),
);
export type NftPurchaseListQuery = v.InferOutput<typeof NftPurchaseListQuery>;

/** POST nfts/sale-listings/actions/record: the listing the seller's wallet just created on chain. */
export const SaleListingRecordInput = fieldObject({
  blockchainListingId: uint64('blockchainListingId'),
  flowBlueprintId: bigintId('flowBlueprintId'),
  nftSeriesNumber: bigintId('nftSeriesNumber'),
  listedOn: v.optional(
    v.pipe(
      v.string('INVALID_VALUE.listedOn'),
      v.isoTimestamp('INVALID_VALUE.listedOn'),
      // The database has no year 0, and an offset can move a four-digit year out of 1..9999: a
      // listing date is an instant from 1970 to 9999 (UTC).
      v.check((s) => {
        const year = new Date(s).getUTCFullYear();
        return year >= 1970 && year <= 9999;
      }, 'INVALID_VALUE.listedOn'),
    ),
  ),
  walletAddress: wallet,
});
export type SaleListingRecordInput = v.InferOutput<typeof SaleListingRecordInput>;

/** POST nfts/sale-listings/actions/cancel: the listing the seller's wallet just removed. */
export const SaleListingCancelInput = fieldObject({ blockchainListingId: uint64('blockchainListingId') });

/** `offer`: an accepted offer (a resale without a listing). */
export const nftPurchaseTypes = ['saleListing', 'directPurchase', 'offer'] as const;

/** POST nfts/purchases/actions/record: the resale transaction the buyer's wallet just sent. */
export const PurchaseRecordInput = fieldObject({
  transactionId: v.pipe(
    v.string('INVALID_VALUE.transactionId'),
    v.regex(/^[0-9a-f]{64}$/, 'INVALID_VALUE.transactionId'),
  ),
  walletAddress: wallet,
  flowBlueprintId: bigintId('flowBlueprintId'),
  nftSeriesNumber: bigintId('nftSeriesNumber'),
  /** Accepted for older clients and ignored: what was bought is read from the transaction's events. */
  type: v.optional(v.picklist(nftPurchaseTypes, 'INVALID_VALUE.type')),
  /** The listing bought; without it, any listing of that NFT the transaction completed. */
  blockchainListingId: v.optional(uint64('blockchainListingId')),
});
export type PurchaseRecordInput = v.InferOutput<typeof PurchaseRecordInput>;
