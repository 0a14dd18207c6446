import * as v from 'valibot';
import { fieldObject } from '../validation';
import { FlowAddress } from './accounts';

/** SPEC §7 nfts, nfts/sale-listings and nfts/purchases inputs. */

/** A UInt64 (token, blueprint, listing id, edition) as a decimal string; numbers are accepted. */
const uint64 = (field: string) =>
  v.pipe(
    v.union([v.string(), v.pipe(v.number(), v.integer(), v.minValue(0))], `INVALID_VALUE.${field}`),
    v.transform(String),
    v.regex(/^\d{1,20}$/, `INVALID_VALUE.${field}`),
    v.check((s) => /^\d{1,20}$/.test(s) && BigInt(s) <= 0xffff_ffff_ffff_ffffn, `INVALID_VALUE.${field}`),
  );

const wallet = v.pipe(FlowAddress);

export const nftStatuses = ['minting', 'parked', 'forSale'] as const;
export type NftStatus = (typeof nftStatuses)[number];
export const saleListingStatuses = ['active', 'completed', 'cancelled'] as const;

export const NftIdParams = v.object({ id: v.pipe(v.string(), v.regex(/^\d{1,20}$/)) });
export const SaleListingIdParams = v.object({ id: v.pipe(v.string(), v.uuid()) });

const queryInt = (field: string, min: number) =>
  v.pipe(
    v.string(`INVALID_VALUE.${field}`),
    v.regex(/^\d{1,9}$/, `INVALID_VALUE.${field}`),
    v.transform(Number),
    v.minValue(min, `INVALID_VALUE.${field}`),
  );

/** NFT list sort columns of SPEC §3 (without one: by blueprint, then edition). */
export const nftSortColumns = ['activeSaleListing.price', 'seriesNumber', 'nftPurchase.purchasedOn'] as const;

/** GET nfts: paging from/to (1-based, inclusive; default 1..50, at most 100 per page) and filters. */
export const NftListQuery = v.pipe(
  v.object({
    from: v.optional(queryInt('from', 1), '1'),
    to: v.optional(queryInt('to', 1)),
    status: v.optional(v.picklist(nftStatuses, 'INVALID_VALUE.status')),
    blueprintId: v.optional(uint64('blueprintId')),
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

/** POST nfts/sale-listings/actions/record: the listing the seller's wallet just created on chain. */
export const SaleListingRecordInput = fieldObject({
  blockchainListingId: uint64('blockchainListingId'),
  flowBlueprintId: uint64('flowBlueprintId'),
  nftSeriesNumber: uint64('nftSeriesNumber'),
  listedOn: v.optional(v.pipe(v.string('INVALID_VALUE.listedOn'), v.isoTimestamp('INVALID_VALUE.listedOn'))),
  walletAddress: wallet,
});
export type SaleListingRecordInput = v.InferOutput<typeof SaleListingRecordInput>;

/** POST nfts/sale-listings/actions/cancel: the listing the seller's wallet just removed. */
export const SaleListingCancelInput = fieldObject({ blockchainListingId: uint64('blockchainListingId') });

export const nftPurchaseTypes = ['saleListing', 'directPurchase'] as const;

/** POST nfts/purchases/actions/record: the purchase transaction the buyer's wallet just sent. */
export const PurchaseRecordInput = fieldObject({
  transactionId: v.pipe(
    v.string('INVALID_VALUE.transactionId'),
    v.regex(/^[0-9a-f]{64}$/, 'INVALID_VALUE.transactionId'),
  ),
  walletAddress: wallet,
  flowBlueprintId: uint64('flowBlueprintId'),
  nftSeriesNumber: uint64('nftSeriesNumber'),
  type: v.picklist(nftPurchaseTypes, 'INVALID_VALUE.type'),
  blockchainListingId: v.optional(uint64('blockchainListingId')),
});
export type PurchaseRecordInput = v.InferOutput<typeof PurchaseRecordInput>;
