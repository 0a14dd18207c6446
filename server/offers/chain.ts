import { type UInt64Input, ufix64, uint64 } from '../chain/actions';
import type { FlowClient, SealedTransaction } from '../chain/client';
import type { AccountKey } from '../chain/config';

/**
 * VitrineOffers on chain (cadence/contracts/VitrineOffers.cdc): the transactions a buyer and an
 * owner sign (the browser signs the same files in the wallet) and the offer's details script.
 */

/** An offer as its buyer's offer book holds it; `expiresAt` in block-time seconds. */
export interface ChainOffer {
  offerId: string;
  buyer: string;
  nftId: string;
  amount: string;
  expiresAt: string;
  /** The buyer's FUSD balance covers the amount now. */
  funded: boolean;
  expired: boolean;
}

export const offerEventType = (client: FlowClient, event: 'OfferMade' | 'OfferCanceled' | 'OfferAccepted') =>
  client.eventType('VitrineOffers', event);

/** Offer `offerId` of `buyer`, or null when the book has no such offer (accepted, canceled, never made). */
export function getOffer(
  client: FlowClient,
  buyer: string,
  offerId: UInt64Input,
): Promise<ChainOffer | null> {
  return client.query<ChainOffer | null>('scripts/get_offer.cdc', (arg, t) => [
    arg(buyer, t.Address),
    arg(uint64(offerId), t.UInt64),
  ]);
}

export function makeOffer(
  client: FlowClient,
  buyer: AccountKey,
  input: { nftId: UInt64Input; amount: string | number; expiryDays: number },
): Promise<SealedTransaction> {
  return client.transact('transactions/make_offer.cdc', {
    signer: buyer,
    args: (arg, t) => [
      arg(uint64(input.nftId), t.UInt64),
      arg(ufix64(input.amount), t.UFix64),
      arg(String(input.expiryDays), t.UInt8),
    ],
  });
}

export function cancelOffer(
  client: FlowClient,
  buyer: AccountKey,
  offerId: UInt64Input,
): Promise<SealedTransaction> {
  return client.transact('transactions/cancel_offer.cdc', {
    signer: buyer,
    args: (arg, t) => [arg(uint64(offerId), t.UInt64)],
  });
}

export function acceptOffer(
  client: FlowClient,
  owner: AccountKey,
  buyer: string,
  offerId: UInt64Input,
): Promise<SealedTransaction> {
  return client.transact('transactions/accept_offer.cdc', {
    signer: owner,
    args: (arg, t) => [arg(buyer, t.Address), arg(uint64(offerId), t.UInt64)],
  });
}
