import { assign, fromPromise, setup } from 'xstate';
import { toDate } from '#domain/dates';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import type { NftJson } from '#domain/nft';
import type { PurchaseRecord } from '#domain/ports/checkout';
import { orderCompleteTarget } from '#domain/purchase';
import { type CoinbaseChargeJson, topupAmount } from '#domain/schemas/crypto';
import type { TopupChargeRequest } from './balancePayment';
import { type RailOutcome, railBack, railRedirect } from './railOutcome';
import { followTopupState, topupFollowDelays, topupFollowGuards } from './topupFollow';

export type { PurchaseRecord } from '#domain/ports/checkout';

/**
 * Buying a resale listing with the stablecoin balance: the FUSD balance is read from the chain;
 * below the price the buyer sees "Insufficient funds" and is offered a crypto top-up of the
 * shortfall (at least $1; only where the crypto rail runs): it opens a hosted top-up charge (POST
 * coinbase-charges, type topup) that returns to `returnTo` (the page this dialog is on, which opens
 * it again on the same listing) and the browser goes to its page (`redirectTo`; output redirect);
 * the buyer can also check the balance again. Otherwise the buyer acknowledges the purchase
 * agreement and terms, signs the buy-listing transaction in the wallet, and the product API records
 * the purchase.
 *
 * A top-up attempt has one idempotency key, kept after a network failure (the charge may exist)
 * so the next try answers the same charge.
 *
 * Bought on chain but not recorded (the record failed): the NFT is the buyer's and the money moved, so
 * closing the dialog then is not a buyer going back: the flow ends paid (output paid), and the buyer
 * sees the listing's purchase-complete page, which looks for the purchase from the time the wallet
 * was asked to sign (`signedFrom`) and shows it once the record, or the indexer, catches up.
 *
 * Back from the top-up's page (`returnedTopup`, its charge id), the dialog first follows that
 * charge (`getTopup`, GET coinbase-charges/{id}) at once and then every `topupPollInterval` (2 s),
 * at most 50 reads in all (a failed read counts and the next tick reads again), until its FUSD is
 * sent (SEND_FUSD_SUCCEEDED), was not sent (SEND_FUSD_FAILED) or it was not paid (EXPIRED,
 * CANCELED); then, or after the last read, it reads the balance. The buyer may close it meanwhile.
 */
export interface BuyListingInput {
  listing: { id: string; blockchainListingId: string; price: number; seller: string };
  nft: { flowBlueprintId: string; seriesNumber: number };
  walletAddress: string;
  /** The crypto rail runs: a short balance can be topped up. */
  canTopUp?: boolean;
  /** Where a top-up's payment page sends the buyer back: this listing's page, the dialog open on it. */
  returnTo: string;
  /** The top-up charge the buyer came back from, followed until its FUSD arrives; or null. */
  returnedTopup?: string | null;
}

export interface BuyListingContext extends BuyListingInput {
  /** FUSD balance in cents, once read. */
  balance: number | null;
  /** The top-up attempt's idempotency key. */
  key: string | null;
  /** The top-up's hosted page, once opened. */
  topupUrl: string | null;
  /** The returned top-up as last read, and the reads of it so far. */
  topup: CoinbaseChargeJson | null;
  topupReads: number;
  acknowledged: boolean;
  /** When the wallet was asked to sign (ms since epoch): a purchase not recorded is looked for from then. */
  signedFrom: number | null;
  transactionId: string | null;
  purchase: PurchaseRecord | null;
  error: ApiErrorBody | null;
}
/**
 * What a finished flow tells: paid (the purchase-complete page of the listing bought, its edition,
 * looking for purchases since the one recorded, or since the signature when the record failed), the
 * top-up's page the browser went to, or back when the buyer closed it before buying.
 */
export type BuyListingOutput = RailOutcome;

/** The listing bought: its purchase-complete page looks for the purchase by its time (a resale has no order). */
const listingPaid = (context: BuyListingContext, startedAt: number): RailOutcome => ({
  type: 'paid',
  target: orderCompleteTarget({
    id: context.listing.id,
    kind: 'nftSaleListing',
    startedAt,
    type: 'saleListing',
    serial: context.nft.seriesNumber,
  }),
});
export type BuyListingEvent =
  | { type: 'buy.acknowledge'; value: boolean }
  | { type: 'buy.submit' }
  | { type: 'buy.topup' }
  | { type: 'buy.retry' }
  | { type: 'buy.close' };

/**
 * What buyListing needs of a listing: the listing, its seller and edition, the buyer's wallet, and
 * where a top-up returns to (and the top-up returned from, if any).
 */
export const buyListingInput = (
  nft: NftJson,
  walletAddress: string,
  topup: { canTopUp: boolean; returnTo: string; returnedTopup?: string | null },
): BuyListingInput => ({
  listing: { ...nft.activeSaleListing!, seller: nft.owner.wallet.walletAddress },
  nft: { flowBlueprintId: nft.blueprintId, seriesNumber: nft.seriesNumber },
  walletAddress,
  canTopUp: topup.canTopUp,
  returnTo: topup.returnTo,
  returnedTopup: topup.returnedTopup ?? null,
});

const error = ({ event }: { event: { error: unknown } }) => event.error;

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
    /** POST coinbase-charges { type: topup }. */
    createTopup: fromPromise<CoinbaseChargeJson, TopupChargeRequest>(async () => {
      throw new Error('createTopup not provided');
    }),
    /** GET coinbase-charges/{id}: the top-up the buyer came back from. */
    getTopup: fromPromise<CoinbaseChargeJson, { id: string }>(async () => {
      throw new Error('getTopup not provided');
    }),
  },
  delays: {
    ...topupFollowDelays,
  },
  guards: {
    returnedFromTopup: ({ context }) => !!context.returnedTopup,
    ...topupFollowGuards,
    balanceCovers: ({ context }, balance: number) => balance >= context.listing.price,
    acknowledged: ({ context }) => context.acknowledged,
    canTopUp: ({ context }) => context.canTopUp === true,
    hasHostedPage: (_, charge: CoinbaseChargeJson) => !!charge.hostedUrl,
    networkFailure: (_, err: unknown) => toErrorBody(err).code === ErrorCode.NETWORK_FAILURE,
  },
  actions: {
    ensureKey: assign({ key: ({ context }) => context.key ?? crypto.randomUUID() }),
    dropKey: assign({ key: null }),
    showError: assign({ error: (_, err: unknown) => toErrorBody(err) }),
    showNoHostedPage: assign({
      error: (): ApiErrorBody => ({
        code: ErrorCode.CREATE_COINBASE_CHARGE,
        message: errorMessage({ code: ErrorCode.CREATE_COINBASE_CHARGE }),
      }),
    }),
    keepTopupUrl: assign({ topupUrl: (_, charge: CoinbaseChargeJson) => charge.hostedUrl }),
    keepTopup: assign({ topup: (_, charge: CoinbaseChargeJson) => charge }),
    countTopupRead: assign({ topupReads: ({ context }) => context.topupReads + 1 }),
    /** Sends the browser to the top-up's hosted page. */
    redirectTo: (_, _params: { url: string }) => {},
    /** Tells the page the NFT is the buyer's (purchase complete). */
    announcePurchased: (_, _params: { purchase: PurchaseRecord }) => {},
  },
}).createMachine({
  id: 'buyListing',
  context: ({ input }) => ({
    ...input,
    balance: null,
    key: null,
    topupUrl: null,
    topup: null,
    topupReads: 0,
    acknowledged: false,
    signedFrom: null,
    transactionId: null,
    purchase: null,
    error: null,
  }),
  initial: 'starting',
  // A purchase ends on the purchase-complete page, which the view opens with this.
  output: ({ context }) => {
    if (context.purchase) return listingPaid(context, toDate(context.purchase.purchasedOn).getTime());
    if (context.transactionId) return listingPaid(context, context.signedFrom!);
    if (context.topupUrl) return railRedirect(context.topupUrl);
    return railBack;
  },
  states: {
    starting: {
      always: [{ guard: 'returnedFromTopup', target: 'awaitingTopup' }, { target: 'checkingBalance' }],
    },
    /** Back from the top-up's page: its FUSD is awaited before the balance is read. */
    awaitingTopup: {
      ...followTopupState('#buyListing.checkingBalance'),
      on: { 'buy.close': 'closed' },
    },
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
    /** Below the price: top up the balance with crypto, or check again. */
    insufficientFunds: {
      on: {
        'buy.topup': { guard: 'canTopUp', target: 'toppingUp', actions: 'ensureKey' },
        'buy.retry': { target: 'checkingBalance', actions: assign({ error: null }) },
        'buy.close': 'closed',
      },
    },
    toppingUp: {
      tags: ['busy'],
      invoke: {
        id: 'createTopup',
        src: 'createTopup',
        input: ({ context }) => ({
          amount: topupAmount(context.listing.price, context.balance ?? 0),
          idempotencyKey: context.key!,
          returnTo: context.returnTo,
        }),
        onDone: [
          {
            guard: { type: 'hasHostedPage', params: ({ event }) => event.output },
            target: 'redirect',
            actions: { type: 'keepTopupUrl', params: ({ event }) => event.output },
          },
          { target: 'insufficientFunds', actions: ['showNoHostedPage', 'dropKey'] },
        ],
        onError: [
          {
            guard: { type: 'networkFailure', params: error },
            target: 'insufficientFunds',
            actions: { type: 'showError', params: error },
          },
          {
            target: 'insufficientFunds',
            actions: [{ type: 'showError', params: error }, 'dropKey'],
          },
        ],
      },
    },
    /** The browser is leaving for the top-up's page. */
    redirect: {
      type: 'final',
      tags: ['busy'],
      entry: { type: 'redirectTo', params: ({ context }) => ({ url: context.topupUrl! }) },
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
      entry: assign({ signedFrom: () => Date.now() }),
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
    /**
     * Bought on chain (the NFT is the buyer's) but not yet recorded: retry; or close, which ends paid
     * (the purchase-complete page waits for the record; the indexer also catches up).
     */
    recordFailed: {
      on: {
        'buy.retry': { target: 'recording', actions: assign({ error: null }) },
        'buy.close': 'unrecorded',
      },
    },
    purchased: { type: 'final' },
    /** Closed after a failed record: paid all the same (output paid, looked for since the signature). */
    unrecorded: { type: 'final' },
    closed: { type: 'final' },
  },
});
