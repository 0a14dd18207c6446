import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd, parseDollars } from '#domain/money';
import { sellerNetCents } from '#domain/nft';
import type { RecordListingInput } from '#domain/ports/checkout';
import {
  type ButtonProps,
  buttonProps,
  type DialogProps,
  dialogProps,
  type FormProps,
  formProps,
  type TextInputProps,
  textInputProps,
} from './props';

export type { RecordListingInput } from '#domain/ports/checkout';

/**
 * "List for sale", offered to an NFT's owner: the owner enters a price in USD, signs the listing in
 * the wallet (an NFTStorefrontV2 listing with the fixed expiry, no commission and our custom id), and
 * the product API records it. Only an owner whose identity check (KYC) is approved may sell.
 *
 * The flow ends with its output: `{ changed: true }` once the person closes the "listed" panel,
 * `{ changed: false }` when they close it before.
 */
export const LISTING_PRICE_MIN_CENTS = 1;
export const LISTING_PRICE_MAX_CENTS = 1_000_000;

export interface ListForSaleInput {
  nft: { id: string; flowBlueprintId: string; seriesNumber: number };
  walletAddress: string;
  kycApproved: boolean;
  /** The blueprint's rates: the seller's net is the price minus these shares. */
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
/** Whether the NFT changed (it was listed): the page reloads it. */
export interface ListForSaleOutput {
  changed: boolean;
}

export interface CreateListingOutput {
  blockchainListingId: string;
}

const validPrice = (cents: number | null): cents is number =>
  cents !== null && cents >= LISTING_PRICE_MIN_CENTS && cents <= LISTING_PRICE_MAX_CENTS;

export const listForSaleMachine = setup({
  types: {
    context: {} as ListForSaleContext,
    events: {} as ListForSaleEvent,
    input: {} as ListForSaleInput,
    output: {} as ListForSaleOutput,
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
    /**
     * A listing sent but not sealed yet (SEAL_TIMEOUT) is waited for again by the next submit: its
     * price stays the one sent.
     */
    priceEditable: ({ context }) => context.error?.code !== ErrorCode.SEAL_TIMEOUT,
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
  output: ({ event }) => event.output as ListForSaleOutput,
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
        'listing.price.change': {
          guard: 'priceEditable',
          actions: assign({ price: ({ event }) => event.value, error: null }),
        },
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
     * the chain indexer picks the listing up within minutes.
     */
    recordFailed: {
      on: {
        'listing.retry': { target: 'recording', actions: assign({ error: null }) },
        'listing.close': 'closed',
      },
    },
    /** Listed and recorded: the panel says so until the person closes it. */
    listed: { on: { 'listing.close': 'done' } },
    done: { type: 'final', output: { changed: true } },
    closed: { type: 'final', output: { changed: false } },
  },
});

/** The panel the dialog shows: the form covers editing, signing and recording. */
export type ListForSalePanel = 'kycRequired' | 'form' | 'listed' | 'recordFailed' | 'done';

export interface ListForSaleView {
  panel: ListForSalePanel;
  title: string;
  busy: boolean;
  price: string;
  /** The price can be typed (not while busy, nor while a sent listing is waited for). */
  canChangePrice: boolean;
  /** The price field's error, shown under it. */
  priceError: string | null;
  /** Any other error, as an alert. */
  error: string | null;
  /** What is under way while busy ("Approve the listing in your wallet…"). */
  status: string | null;
  /** The shares of a valid price typed so far, and what the seller receives. */
  summary: { royalty: string; platformFee: string; net: string } | null;
  /** The "listed" panel's text. */
  listedText: string;
  /** The dialog: Escape and its close button close it when the machine allows. */
  getDialogProps: () => DialogProps;
  /** The price form: its submit signs the listing when the machine takes it. */
  getFormProps: () => FormProps;
  getPriceInputProps: () => TextInputProps;
  /** List for sale, the form's submit button (busy while the wallet signs and it is saved). */
  getSubmitButtonProps: () => ButtonProps;
  getRetryButtonProps: () => ButtonProps;
  /** Cancel, Close or Done. */
  getCloseButtonProps: () => ButtonProps;
}

const listPanel = (snapshot: SnapshotFrom<typeof listForSaleMachine>): ListForSalePanel => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('kycRequired')) return 'kycRequired';
  if (snapshot.matches('listed')) return 'listed';
  if (snapshot.matches('recordFailed')) return 'recordFailed';
  return 'form';
};

export function connectListForSale(
  snapshot: SnapshotFrom<typeof listForSaleMachine>,
  send: (event: ListForSaleEvent) => void,
): ListForSaleView {
  const { context } = snapshot;
  const panel = listPanel(snapshot);
  const busy = snapshot.hasTag('busy');
  const cents = parseDollars(context.price);
  const fieldError = context.error?.field === 'price';
  const canChangePrice = snapshot.can({ type: 'listing.price.change', value: context.price });
  const can = (type: 'listing.submit' | 'listing.retry' | 'listing.close') => snapshot.can({ type });
  /** A button that sends `type`, enabled when the machine takes it. */
  const button = (type: Parameters<typeof can>[0]) =>
    buttonProps({ onClick: () => send({ type }), disabled: !can(type) });
  return {
    panel,
    title: panel === 'listed' ? 'Listed for sale' : 'List for sale',
    busy,
    price: context.price,
    canChangePrice,
    priceError: fieldError && context.error ? errorMessage(context.error) : null,
    error: !fieldError && context.error ? errorMessage(context.error) : null,
    status: snapshot.matches('signing')
      ? 'Approve the listing in your wallet…'
      : snapshot.matches('recording')
        ? 'Saving your listing…'
        : null,
    summary:
      panel === 'form' && cents !== null && cents > 0
        ? {
            royalty: `${context.royaltyPercent} %`,
            platformFee: `${context.platformFeePercent} %`,
            net: formatUsd(sellerNetCents(cents, context)),
          }
        : null,
    listedText: `Your collectible is on the marketplace for ${formatUsd(context.priceCents)}. Buyers pay with their balance; you receive the proceeds in your wallet when it sells.`,
    getDialogProps: () => dialogProps(can('listing.close'), () => send({ type: 'listing.close' })),
    getFormProps: () => formProps(can('listing.submit'), () => send({ type: 'listing.submit' })),
    getPriceInputProps: () =>
      textInputProps({
        value: context.price,
        readOnly: !canChangePrice,
        error: fieldError && context.error ? errorMessage(context.error) : null,
        change: (value) => send({ type: 'listing.price.change', value }),
      }),
    getSubmitButtonProps: () => buttonProps({ type: 'submit', disabled: !can('listing.submit'), busy }),
    getRetryButtonProps: () => button('listing.retry'),
    getCloseButtonProps: () => button('listing.close'),
  };
}
