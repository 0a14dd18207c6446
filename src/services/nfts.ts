import { type DateValue, toDate } from '#domain/dates';
import { type PurchaseLookup, purchaseMatches } from '#domain/orderComplete';
import type { RecordListingInput } from '#domain/ports/checkout';
import type { PurchaseJson } from '#domain/purchase';
import type { FreeClaimJson } from '#domain/schemas/checkout';
import type { Api } from './api';

const toIso = (time: DateValue) => toDate(time).toISOString();

/** The nfts part of the product API (nfts, nfts/sale-listings, nfts/purchases). */
export function nftService(api: Api) {
  return {
    get: (id: string) => api.get('/nfts/{id}', { params: { id } }),
    /** Its creation and purchases, newest first (GET nfts/{id}/history). */
    history: (id: string) => api.get('/nfts/{id}/history', { params: { id } }),
    /** A user's collectibles, newest editions first within a blueprint (the first 100). */
    ownedBy: (ownerId: string) => api.get('/nfts', { query: { ownerId, from: 1, to: 100 } }),
    /** Editions of a blueprint its owners offer for resale, cheapest first. */
    forSale: async (flowBlueprintId: string) => {
      const page = await api.get('/nfts', {
        query: { blueprintId: flowBlueprintId, status: 'forSale', from: 1, to: 100 },
      });
      return page.results
        .filter((n) => n.activeSaleListing)
        .sort((a, b) => a.activeSaleListing!.price - b.activeSaleListing!.price);
    },
    /**
     * The caller's purchase of the item looked for, made at or after `since`, among their last 10
     * purchases; null while there is none yet.
     */
    findPurchase: async (lookup: PurchaseLookup): Promise<PurchaseJson | null> => {
      const page = await api.get('/nfts/purchases', { query: { from: 1, to: 10 } });
      return page.results.find((p) => purchaseMatches(p, lookup)) ?? null;
    },
    /** The caller's claim of a free blueprint (GET free-blueprint-claims), or null when they made none. */
    claimOf: async (blueprintId: string): Promise<FreeClaimJson | null> =>
      (await api.get('/free-blueprint-claims', { query: { blueprintId } })).results[0] ?? null,
    recordListing: (input: RecordListingInput) =>
      api.post('/nfts/sale-listings/actions/record', { json: input }),
    cancelListing: (input: { blockchainListingId: string }) =>
      api.post('/nfts/sale-listings/actions/cancel', { json: input }),
    recordPurchase: async (input: {
      transactionId: string;
      walletAddress: string;
      flowBlueprintId: string;
      nftSeriesNumber: string;
      type: 'saleListing';
      blockchainListingId: string;
    }) => {
      const answer = await api.post('/nfts/purchases/actions/record', { json: input });
      // 202: bought (the wallet saw the seal) but not sealed at the server's access node yet; the
      // server's indexer records the purchase once it is, so there is no record id to answer yet.
      if ('status' in answer) {
        return { id: '', transactionId: answer.transactionId, purchasedOn: new Date().toISOString() };
      }
      // The port states the time as ISO text; the client revived it into a Date.
      return { id: answer.id, transactionId: answer.transactionId, purchasedOn: toIso(answer.purchasedOn) };
    },
  };
}
