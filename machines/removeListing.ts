import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import { type ButtonProps, buttonProps, type DialogProps, dialogProps } from './props';

/**
 * Remove a listing, offered to the owner of an NFT for sale: the owner confirms, signs the removal in
 * the wallet, and the product API records the cancellation. A failed removal reads as the marketplace
 * error ("Unable to remove NFT from the marketplace…"); a wallet refusal says so.
 *
 * The flow ends with its output: `{ changed: true }` once the person closes the "removed" panel,
 * `{ changed: false }` when they close it before.
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
/** Whether the NFT changed (its listing is gone): the page reloads it. */
export interface RemoveListingOutput {
  changed: boolean;
}

/**
 * Wallet refusals and a removal sent but not sealed yet (trying again waits for it) keep their own
 * text; every other failure reads as the marketplace error.
 */
const removalError = (error: unknown): ApiErrorBody => {
  const body = toErrorBody(error);
  return body.code.startsWith('WALLET_') || body.code === ErrorCode.SEAL_TIMEOUT
    ? body
    : { code: ErrorCode.REMOVE_LISTING, message: '' };
};

export const removeListingMachine = setup({
  types: {
    context: {} as RemoveListingContext,
    events: {} as RemoveListingEvent,
    input: {} as RemoveListingInput,
    output: {} as RemoveListingOutput,
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
  output: ({ event }) => event.output as RemoveListingOutput,
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
    /** Off the marketplace and recorded: the panel says so until the person closes it. */
    removed: { on: { 'listing.close': 'done' } },
    done: { type: 'final', output: { changed: true } },
    closed: { type: 'final', output: { changed: false } },
  },
});

export type RemoveListingPanel = 'confirming' | 'removed' | 'recordFailed' | 'done';

export interface RemoveListingView {
  panel: RemoveListingPanel;
  title: string;
  text: string;
  busy: boolean;
  /** What is under way while busy. */
  status: string | null;
  error: string | null;
  closeLabel: string;
  /** The dialog: Escape and its close button close it when the machine allows. */
  getDialogProps: () => DialogProps;
  /** Remove listing (busy while the wallet signs and the removal is saved). */
  getConfirmButtonProps: () => ButtonProps;
  getRetryButtonProps: () => ButtonProps;
  /** Cancel, Close or Done (`closeLabel`). */
  getCloseButtonProps: () => ButtonProps;
}

export function connectRemoveListing(
  snapshot: SnapshotFrom<typeof removeListingMachine>,
  send: (event: RemoveListingEvent) => void,
): RemoveListingView {
  const { error } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  const can = (type: 'listing.remove.confirm' | 'listing.retry' | 'listing.close') => snapshot.can({ type });
  /** A button that sends `type`, enabled when the machine takes it. */
  const button = (type: Parameters<typeof can>[0], working = false) =>
    buttonProps({ onClick: () => send({ type }), disabled: !can(type), busy: working });
  const panel: RemoveListingPanel =
    snapshot.status === 'done'
      ? 'done'
      : snapshot.matches('removed')
        ? 'removed'
        : snapshot.matches('recordFailed')
          ? 'recordFailed'
          : 'confirming';
  return {
    panel,
    title: panel === 'removed' ? 'Removed from the marketplace' : 'Remove listing',
    text:
      panel === 'removed'
        ? 'Your collectible is no longer for sale.'
        : 'Take this collectible off the marketplace? You can list it again at any time.',
    busy,
    status: snapshot.matches('signing')
      ? 'Approve the removal in your wallet…'
      : snapshot.matches('recording')
        ? 'Saving…'
        : null,
    error: error ? errorMessage(error) : null,
    closeLabel: panel === 'recordFailed' ? 'Close' : busy ? 'Waiting for the wallet…' : 'Cancel',
    getDialogProps: () => dialogProps(can('listing.close'), () => send({ type: 'listing.close' })),
    getConfirmButtonProps: () => button('listing.remove.confirm', busy),
    getRetryButtonProps: () => button('listing.retry'),
    getCloseButtonProps: () => button('listing.close'),
  };
}
