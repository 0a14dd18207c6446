import * as v from 'valibot';
import { offerStatuses } from '../schemas/offers';
import { Count, DateTime, pageOf } from './common';

/** A person on either side of an offer. */
export const OfferParty = v.object({
  id: v.nullable(v.string()),
  username: v.nullable(v.string()),
  avatarUrl: v.nullable(v.string()),
  walletAddress: v.string(),
});

/** An offer on an NFT as the API answers it (money in cents). */
export const OfferJson = v.object({
  id: v.string(),
  /** The offer resource's id in the buyer's account on chain. */
  chainOfferId: v.string(),
  nft: v.object({
    id: v.string(),
    blueprintId: v.string(),
    title: v.string(),
    imageUrl: v.nullable(v.string()),
    seriesNumber: Count,
  }),
  buyer: OfferParty,
  /** The NFT's owner when the offer was made (its seller if accepted). */
  owner: OfferParty,
  amount: Count,
  status: v.picklist(offerStatuses),
  expiresAt: DateTime,
  createdAt: DateTime,
  /** When it was accepted, canceled or expired. */
  closedAt: v.nullable(DateTime),
  /** The transaction that made it, and the one that accepted or canceled it. */
  transactionId: v.string(),
  closingTransactionId: v.nullable(v.string()),
});
export type OfferJson = v.InferOutput<typeof OfferJson>;

/** GET offers: newest first. */
export const OfferPage = pageOf(OfferJson);
export type OfferPage = v.InferOutput<typeof OfferPage>;

/** An offer transaction not sealed yet: the indexer records it once sealed. */
export const PendingOffer = v.object({ status: v.literal('pending'), transactionId: v.string() });

/** POST offers/actions/record. */
export const OfferRecordAnswer = v.union([OfferJson, PendingOffer]);
