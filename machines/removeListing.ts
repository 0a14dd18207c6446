import { assign, fromPromise, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, toErrorBody } from '#domain/errors';

/**
 * Remove a listing (SPEC §4 NFT status, §6 NFT owner): the owner confirms, signs the removal in the
 * wallet, and the product API records the cancellation. A failed removal shows the marketplace error
 * of SPEC §8 ("Unable to remove NFT from the marketplace…"); a wallet refusal says so.
 */
export interface RemoveListingInput {
  blockchainListingId: string;
  walletAddress: string;
}
export interface RemoveListingContext extends RemoveListingInput {
  error: ApiErrorBody | null;
}
export type RemoveListingEvent =
  | { type: 'listing.remove.confirm' }
  | { type: 'listing.retry' }
  | { type: 'listing.close' };

/** Wallet refusals keep their own text; every other failure reads as the marketplace error. */
const removalError = (error: unknown): ApiErrorBody => {
  const body = toErrorBody(error);
  return body.code.startsWith('WALLET_') ? body : { code: ErrorCode.REMOVE_LISTING, message: '' };
};

export const removeListingMachine = setup({
  types: {
    context: {} as RemoveListingContext,
    events: {} as RemoveListingEvent,
    input: {} as RemoveListingInput,
    tags: {} as 'busy',
  },
  actors: {
    /** The remove-listing transaction, signed in the seller's wallet and awaited until sealed. */
    removeListing: fromPromise<unknown, { address: string; blockchainListingId: string }>(async () => {
      throw new Error('removeListing not provided');
    }),
    /** POST nfts/sale-listings/actions/cancel. */
    cancelListing: fromPromise<unknown, { blockchainListingId: string }>(async () => {
      throw new Error('cancelListing not provided');
    }),
  },
  actions: {
    /** Tells the page the listing is gone (refresh, toast). */
    announceRemoved: () => {},
  },
}).createMachine({
  id: 'removeListing',
  context: ({ input }) => ({ ...input, error: null }),
  initial: 'confirming',
  states: {
    confirming: {
      on: {
        'listing.remove.confirm': { target: 'signing', actions: assign({ error: null }) },
        'listing.close': 'closed',
      },
    },
    signing: {
      tags: ['busy'],
      invoke: {
        id: 'removeListing',
        src: 'removeListing',
        input: ({ context }) => ({
          address: context.walletAddress,
          blockchainListingId: context.blockchainListingId,
        }),
        onDone: 'recording',
        onError: {
          target: 'confirming',
          actions: assign({ error: ({ event }) => removalError(event.error) }),
        },
      },
    },
    recording: {
      tags: ['busy'],
      invoke: {
        id: 'cancelListing',
        src: 'cancelListing',
        input: ({ context }) => ({ blockchainListingId: context.blockchainListingId }),
        onDone: { target: 'removed', actions: 'announceRemoved' },
        onError: {
          target: 'recordFailed',
          actions: assign({ error: ({ event }) => removalError(event.error) }),
        },
      },
    },
    /** Off the chain but not yet recorded: retry, or close and let the indexer catch up. */
    recordFailed: {
      on: {
        'listing.retry': { target: 'recording', actions: assign({ error: null }) },
        'listing.close': 'closed',
      },
    },
    removed: { type: 'final' },
    closed: { type: 'final' },
  },
});
