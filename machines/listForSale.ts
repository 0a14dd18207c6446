import { assign, fromPromise, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, toErrorBody } from '#domain/errors';
import { parseDollars } from '#domain/money';

/**
 * "List for sale" (SPEC §2 checkout panel, §4 NFT status, §6 NFT owner): the owner enters a price in
 * USD, signs the listing in the wallet (NFTStorefrontV2 with the fixed expiry, commission 0 and
 * custom id), and the product API records it. Selling needs approved KYC (SPEC §1, §6).
 */
export const LISTING_PRICE_MIN_CENTS = 1;
export const LISTING_PRICE_MAX_CENTS = 1_000_000;

export interface ListForSaleInput {
  nft: { id: string; flowBlueprintId: string; seriesNumber: number };
  walletAddress: string;
  kycApproved: boolean;
  /** The blueprint's rates: the seller's net is the price minus these shares (SPEC §9). */
  royaltyPercent: number;
  platformFeePercent: number;
}
export interface ListForSaleContext extends ListForSaleInput {
  price: string;
  priceCents: number;
  blockchainListingId: string | null;
  error: ApiErrorBody | null;
}
export type ListForSaleEvent =
  | { type: 'listing.price.change'; value: string }
  | { type: 'listing.submit' }
  | { type: 'listing.retry' }
  | { type: 'listing.close' };

export interface CreateListingOutput {
  blockchainListingId: string;
}
export interface RecordListingInput {
  blockchainListingId: string;
  flowBlueprintId: string;
  nftSeriesNumber: string;
  walletAddress: string;
}

const validPrice = (cents: number | null): cents is number =>
  cents !== null && cents >= LISTING_PRICE_MIN_CENTS && cents <= LISTING_PRICE_MAX_CENTS;

export const listForSaleMachine = setup({
  types: {
    context: {} as ListForSaleContext,
    events: {} as ListForSaleEvent,
    input: {} as ListForSaleInput,
    tags: {} as 'busy',
  },
  actors: {
    /** The create-listing transaction, signed in the seller's wallet and awaited until sealed. */
    createListing: fromPromise<
      CreateListingOutput,
      { address: string; nftId: string; priceCents: number; platformFeePercent: number }
    >(async () => {
      throw new Error('createListing not provided');
    }),
    /** POST nfts/sale-listings/actions/record. */
    recordListing: fromPromise<unknown, RecordListingInput>(async () => {
      throw new Error('recordListing not provided');
    }),
  },
  guards: {
    kycApproved: ({ context }) => context.kycApproved,
    priceValid: ({ context }) => validPrice(parseDollars(context.price)),
  },
  actions: {
    /** Tells the page the NFT is listed (refresh, toast). */
    announceListed: () => {},
  },
}).createMachine({
  id: 'listForSale',
  context: ({ input }) => ({
    ...input,
    price: '',
    priceCents: 0,
    blockchainListingId: null,
    error: null,
  }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'kycApproved', target: 'editing' }, { target: 'kycRequired' }],
    },
    kycRequired: {
      entry: assign({ error: () => ({ code: ErrorCode.KYC_REQUIRED, message: '' }) }),
      on: { 'listing.close': 'closed' },
    },
    editing: {
      on: {
        'listing.price.change': { actions: assign({ price: ({ event }) => event.value, error: null }) },
        'listing.submit': [
          {
            guard: 'priceValid',
            target: 'signing',
            actions: assign({ priceCents: ({ context }) => parseDollars(context.price)!, error: null }),
          },
          {
            actions: assign({
              error: () => ({ code: ErrorCode.INVALID_VALUE, field: 'price', message: '' }),
            }),
          },
        ],
        'listing.close': 'closed',
      },
    },
    signing: {
      tags: ['busy'],
      invoke: {
        id: 'createListing',
        src: 'createListing',
        input: ({ context }) => ({
          address: context.walletAddress,
          nftId: context.nft.id,
          priceCents: context.priceCents,
          platformFeePercent: context.platformFeePercent,
        }),
        onDone: {
          target: 'recording',
          actions: assign({ blockchainListingId: ({ event }) => event.output.blockchainListingId }),
        },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    recording: {
      tags: ['busy'],
      invoke: {
        id: 'recordListing',
        src: 'recordListing',
        input: ({ context }) => ({
          blockchainListingId: context.blockchainListingId!,
          flowBlueprintId: context.nft.flowBlueprintId,
          nftSeriesNumber: String(context.nft.seriesNumber),
          walletAddress: context.walletAddress,
        }),
        onDone: { target: 'listed', actions: 'announceListed' },
        onError: {
          target: 'recordFailed',
          actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
        },
      },
    },
    /**
     * The listing is on chain but the API did not record it. Retrying records it; closing is safe too:
     * the chain indexer picks the listing up within minutes (SPEC §1).
     */
    recordFailed: {
      on: {
        'listing.retry': { target: 'recording', actions: assign({ error: null }) },
        'listing.close': 'closed',
      },
    },
    listed: { type: 'final' },
    closed: { type: 'final' },
  },
});

/** What the seller receives for `priceCents` after the royalty and platform-fee shares, in cents. */
export function sellerNetCents(
  priceCents: number,
  royaltyPercent: number,
  platformFeePercent: number,
): number {
  return Math.round(priceCents * (1 - (royaltyPercent + platformFeePercent) / 100));
}
