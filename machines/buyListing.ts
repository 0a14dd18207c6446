import { assign, fromPromise, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, toErrorBody } from '../src/domain/errors';

/**
 * Buying a resale listing with the stablecoin balance (SPEC §4 "Pressing buy": stablecoin balance):
 * the FUSD balance is read from the chain; below the price the buyer sees "Insufficient funds" and
 * can check again after topping up; otherwise the buyer acknowledges the purchase agreement and
 * terms, signs the buy-listing transaction in the wallet, and the product API records the purchase.
 */
export interface BuyListingInput {
  listing: { id: string; blockchainListingId: string; price: number; seller: string };
  nft: { flowBlueprintId: string; seriesNumber: number };
  walletAddress: string;
}
export interface PurchaseRecord {
  id: string;
  transactionId: string;
  purchasedOn: string;
}
export interface BuyListingContext extends BuyListingInput {
  /** FUSD balance in cents, once read. */
  balance: number | null;
  acknowledged: boolean;
  transactionId: string | null;
  purchase: PurchaseRecord | null;
  error: ApiErrorBody | null;
}
/** What a finished flow tells: the listing bought and its edition, or null when the buyer closed it. */
export type BuyListingOutput = {
  listingId: string;
  seriesNumber: number;
  purchase: PurchaseRecord;
} | null;
export type BuyListingEvent =
  | { type: 'buy.acknowledge'; value: boolean }
  | { type: 'buy.submit' }
  | { type: 'buy.retry' }
  | { type: 'buy.close' };

export const buyListingMachine = setup({
  types: {
    context: {} as BuyListingContext,
    events: {} as BuyListingEvent,
    input: {} as BuyListingInput,
    output: {} as BuyListingOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** FUSD balance of the address, in cents. */
    fusdBalance: fromPromise<number, { address: string }>(async () => {
      throw new Error('fusdBalance not provided');
    }),
    /** The buy-listing transaction, signed in the buyer's wallet and awaited until sealed. */
    buyListing: fromPromise<
      { transactionId: string },
      { address: string; seller: string; blockchainListingId: string }
    >(async () => {
      throw new Error('buyListing not provided');
    }),
    /** POST nfts/purchases/actions/record with type saleListing. */
    recordPurchase: fromPromise<
      PurchaseRecord,
      {
        transactionId: string;
        walletAddress: string;
        flowBlueprintId: string;
        nftSeriesNumber: string;
        type: 'saleListing';
        blockchainListingId: string;
      }
    >(async () => {
      throw new Error('recordPurchase not provided');
    }),
  },
  guards: {
    balanceCovers: ({ context }, balance: number) => balance >= context.listing.price,
    acknowledged: ({ context }) => context.acknowledged,
  },
  actions: {
    /** Tells the page the NFT is the buyer's (purchase complete). */
    announcePurchased: (_, _params: { purchase: PurchaseRecord }) => {},
  },
}).createMachine({
  id: 'buyListing',
  context: ({ input }) => ({
    ...input,
    balance: null,
    acknowledged: false,
    transactionId: null,
    purchase: null,
    error: null,
  }),
  initial: 'checkingBalance',
  // A purchase ends on the purchase-complete page, which the view opens with this.
  output: ({ context }) =>
    context.purchase
      ? { listingId: context.listing.id, seriesNumber: context.nft.seriesNumber, purchase: context.purchase }
      : null,
  states: {
    checkingBalance: {
      tags: ['busy'],
      invoke: {
        id: 'fusdBalance',
        src: 'fusdBalance',
        input: ({ context }) => ({ address: context.walletAddress }),
        onDone: [
          {
            guard: { type: 'balanceCovers', params: ({ event }) => event.output },
            target: 'confirming',
            actions: assign({ balance: ({ event }) => event.output }),
          },
          {
            target: 'insufficientFunds',
            actions: assign({
              balance: ({ event }) => event.output,
              error: () => ({ code: ErrorCode.INSUFFICIENT_FUNDS, message: '' }),
            }),
          },
        ],
        onError: {
          target: 'balanceFailed',
          actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
        },
      },
    },
    balanceFailed: {
      on: {
        'buy.retry': { target: 'checkingBalance', actions: assign({ error: null }) },
        'buy.close': 'closed',
      },
    },
    /** Below the price: top up the balance, then check again. */
    insufficientFunds: {
      on: {
        'buy.retry': { target: 'checkingBalance', actions: assign({ error: null }) },
        'buy.close': 'closed',
      },
    },
    confirming: {
      on: {
        'buy.acknowledge': { actions: assign({ acknowledged: ({ event }) => event.value, error: null }) },
        'buy.submit': [
          { guard: 'acknowledged', target: 'signing', actions: assign({ error: null }) },
          {
            actions: assign({
              error: () => ({ code: ErrorCode.INVALID_VALUE, field: 'terms', message: '' }),
            }),
          },
        ],
        'buy.close': 'closed',
      },
    },
    signing: {
      tags: ['busy'],
      invoke: {
        id: 'buyListing',
        src: 'buyListing',
        input: ({ context }) => ({
          address: context.walletAddress,
          seller: context.listing.seller,
          blockchainListingId: context.listing.blockchainListingId,
        }),
        onDone: {
          target: 'recording',
          actions: assign({ transactionId: ({ event }) => event.output.transactionId }),
        },
        onError: {
          target: 'confirming',
          actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
        },
      },
    },
    recording: {
      tags: ['busy'],
      invoke: {
        id: 'recordPurchase',
        src: 'recordPurchase',
        input: ({ context }) => ({
          transactionId: context.transactionId!,
          walletAddress: context.walletAddress,
          flowBlueprintId: context.nft.flowBlueprintId,
          nftSeriesNumber: String(context.nft.seriesNumber),
          type: 'saleListing' as const,
          blockchainListingId: context.listing.blockchainListingId,
        }),
        onDone: {
          target: 'purchased',
          actions: [
            assign({ purchase: ({ event }) => event.output }),
            { type: 'announcePurchased', params: ({ event }) => ({ purchase: event.output }) },
          ],
        },
        onError: {
          target: 'recordFailed',
          actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
        },
      },
    },
    /** Bought on chain (the NFT is the buyer's) but not yet recorded: retry; the indexer also catches up. */
    recordFailed: {
      on: {
        'buy.retry': { target: 'recording', actions: assign({ error: null }) },
        'buy.close': 'closed',
      },
    },
    purchased: { type: 'final' },
    closed: { type: 'final' },
  },
});
