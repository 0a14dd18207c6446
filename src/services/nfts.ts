import type { PurchaseRecord } from '../../machines/buyListing';
import type { RecordListingInput } from '../../machines/listForSale';
import type { NftJson } from '../domain/nft';
import type { Api } from './api';

/** The nfts part of the product API (SPEC §7 nfts, nfts/sale-listings, nfts/purchases). */
export function nftService(api: Api) {
  return {
    get: (id: string) => api.get<NftJson>(`nfts/${encodeURIComponent(id)}`),
    /** A user's collectibles, newest editions first within a blueprint (the first 100). */
    ownedBy: (ownerId: string) =>
      api.get<{ results: NftJson[]; total: number }>('nfts', { ownerId, from: 1, to: 100 }),
    recordListing: (input: RecordListingInput) => api.post('nfts/sale-listings/actions/record', input),
    cancelListing: (input: { blockchainListingId: string }) =>
      api.post('nfts/sale-listings/actions/cancel', input),
    recordPurchase: (input: {
      transactionId: string;
      walletAddress: string;
      flowBlueprintId: string;
      nftSeriesNumber: string;
      type: 'saleListing';
      blockchainListingId: string;
    }) => api.post<PurchaseRecord>('nfts/purchases/actions/record', input),
  };
}
export type NftService = ReturnType<typeof nftService>;
