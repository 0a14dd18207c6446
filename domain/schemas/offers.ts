import * as v from 'valibot';
import { queryInteger, queryList } from '../validation';
import { FlowTransactionId } from './fusd';
import { NftIdParams } from './nfts';

/**
 * Offers on NFTs: a collector offers an amount of FUSD for any NFT (listed or not) until an expiry.
 * The offer lives on chain in the buyer's account (the VitrineOffers contract) and holds only a
 * capability to withdraw at most that amount from the buyer's FUSD vault: the platform never holds
 * the funds. The server records what the chain says (the record action and the indexer).
 */

/** How long an offer stands, in days: the only choices. */
export const OFFER_EXPIRY_DAYS = [1, 3, 7, 30] as const;
export type OfferExpiryDays = (typeof OFFER_EXPIRY_DAYS)[number];

/** The smallest and largest amount an offer may name, in cents: $1 to $10,000 (a listing's highest price). */
export const OFFER_MIN_CENTS = 100;
export const OFFER_MAX_CENTS = 1_000_000;

/**
 * An offer's status: `open` (standing and funded), `unfunded` (standing, but the buyer's FUSD
 * balance no longer covers it: shown as "no longer funded"; it becomes open again if it does),
 * `accepted`, `canceled` (by the buyer), `expired` (its expiry passed unaccepted).
 */
export const offerStatuses = ['open', 'unfunded', 'accepted', 'canceled', 'expired'] as const;
export type OfferStatus = (typeof offerStatuses)[number];

/** A page of offers holds at most this many. */
export const OFFERS_PAGE_MAX = 50;

/** The offer being made, as the buyer's machine checks it before the wallet signs. */
export const OfferDraft = v.object({
  nftId: NftIdParams.entries.id,
  amount: v.pipe(
    v.number('INVALID_VALUE.amount'),
    v.integer('INVALID_VALUE.amount'),
    v.minValue(OFFER_MIN_CENTS, 'INVALID_VALUE.amount'),
    v.maxValue(OFFER_MAX_CENTS, 'INVALID_VALUE.amount'),
  ),
  expiryDays: v.picklist(OFFER_EXPIRY_DAYS, 'INVALID_VALUE.expiryDays'),
});
export type OfferDraft = v.InferOutput<typeof OfferDraft>;

/** GET offers: filters (each optional) and paging from/to (1-based, inclusive, at most 50). */
export const OfferListQuery = v.pipe(
  v.object({
    nftId: v.optional(NftIdParams.entries.id),
    buyerId: v.optional(v.pipe(v.string('INVALID_VALUE.buyerId'), v.uuid('INVALID_VALUE.buyerId'))),
    ownerId: v.optional(v.pipe(v.string('INVALID_VALUE.ownerId'), v.uuid('INVALID_VALUE.ownerId'))),
    status: v.optional(queryList('status', { values: offerStatuses })),
    from: v.optional(queryInteger('from', 1), '1'),
    to: v.optional(queryInteger('to', 1)),
  }),
  v.transform((q) => ({ ...q, to: q.to ?? q.from + OFFERS_PAGE_MAX - 1 })),
  v.check((q) => q.to >= q.from && q.to - q.from < OFFERS_PAGE_MAX, 'INVALID_VALUE.to'),
);
export type OfferListQuery = v.InferOutput<typeof OfferListQuery>;

/**
 * POST offers/actions/record: a transaction the wallet just sent that made, canceled or accepted an
 * offer. The server reads the sealed transaction's events and records only what they say.
 */
export const OfferRecordInput = v.object({ transactionId: FlowTransactionId });
export type OfferRecordInput = v.InferOutput<typeof OfferRecordInput>;
