import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd } from '#domain/money';
import { type ButtonProps, buttonProps, type DialogProps, dialogProps } from './props';

/**
 * "Cancel offer", offered to the buyer of a standing offer: the buyer confirms, signs the cancel in
 * the wallet (the offer resource leaves their account; no funds ever moved), waits for the seal, and
 * the product API records it. A failed signature goes back to the confirmation, to try again.
 *
 * The flow ends with its output: `{ changed: true }` once the offer is canceled (on chain) and the
 * person closes the dialog, `{ changed: false }` when they close it before.
 */
export interface CancelOfferInput {
  offer: { chainOfferId: string; amount: number };
  walletAddress: string;
}
export interface CancelOfferContext extends CancelOfferInput {
  transactionId: string | null;
  error: ApiErrorBody | null;
}
export type CancelOfferEvent = { type: 'offer.cancel' } | { type: 'offer.retry' } | { type: 'offer.close' };
/** Whether the offer was canceled: the page reloads its offers. */
export interface CancelOfferOutput {
  changed: boolean;
}

export const cancelOfferMachine = setup({
  types: {
    context: {} as CancelOfferContext,
    events: {} as CancelOfferEvent,
    input: {} as CancelOfferInput,
    output: {} as CancelOfferOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** The cancel-offer transaction, signed in the buyer's wallet and awaited until sealed. */
    cancelOffer: fromPromise<{ transactionId: string }, { address: string; chainOfferId: string }>(
      async () => {
        throw new Error('cancelOffer not provided');
      },
    ),
    /** POST offers/actions/record with the sealed transaction. */
    recordOffer: fromPromise<unknown, { transactionId: string }>(async () => {
      throw new Error('recordOffer not provided');
    }),
  },
  actions: {
    /** Tells the page the offer is canceled (refresh, toast). */
    announceCanceled: () => {},
  },
}).createMachine({
  id: 'cancelOffer',
  context: ({ input }) => ({ ...input, transactionId: null, error: null }),
  initial: 'confirming',
  output: ({ event }) => event.output as CancelOfferOutput,
  states: {
    confirming: {
      on: {
        'offer.cancel': { target: 'signing', actions: assign({ error: null }) },
        'offer.close': 'closed',
      },
    },
    signing: {
      tags: ['busy'],
      invoke: {
        id: 'cancelOffer',
        src: 'cancelOffer',
        input: ({ context }) => ({
          address: context.walletAddress,
          chainOfferId: context.offer.chainOfferId,
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
        id: 'recordOffer',
        src: 'recordOffer',
        input: ({ context }) => ({ transactionId: context.transactionId! }),
        onDone: { target: 'canceled', actions: 'announceCanceled' },
        onError: {
          target: 'recordFailed',
          actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
        },
      },
    },
    /** Canceled on chain but not recorded: retry, or close and let the indexer catch up. */
    recordFailed: {
      on: {
        'offer.retry': { target: 'recording', actions: assign({ error: null }) },
        'offer.close': 'done',
      },
    },
    /** Canceled and recorded: the panel says so until the person closes it. */
    canceled: { on: { 'offer.close': 'done' } },
    done: { type: 'final', output: { changed: true } },
    closed: { type: 'final', output: { changed: false } },
  },
});

export type CancelOfferPanel = 'confirming' | 'canceled' | 'recordFailed' | 'done';

export interface CancelOfferView {
  panel: CancelOfferPanel;
  title: string;
  text: string;
  busy: boolean;
  status: string | null;
  error: string | null;
  closeLabel: string;
  getDialogProps: () => DialogProps;
  /** Cancel offer (busy while the wallet signs and the cancel is saved). */
  getConfirmButtonProps: () => ButtonProps;
  getRetryButtonProps: () => ButtonProps;
  getCloseButtonProps: () => ButtonProps;
}

export function connectCancelOffer(
  snapshot: SnapshotFrom<typeof cancelOfferMachine>,
  send: (event: CancelOfferEvent) => void,
): CancelOfferView {
  const { context } = snapshot;
  const busy = snapshot.hasTag('busy');
  const can = (type: CancelOfferEvent['type']) => snapshot.can({ type });
  const button = (type: CancelOfferEvent['type'], working = false) =>
    buttonProps({ onClick: () => send({ type }), disabled: !can(type), busy: working });
  const panel: CancelOfferPanel =
    snapshot.status === 'done'
      ? 'done'
      : snapshot.matches('canceled')
        ? 'canceled'
        : snapshot.matches('recordFailed')
          ? 'recordFailed'
          : 'confirming';
  const amount = formatUsd(context.offer.amount);
  return {
    panel,
    title: panel === 'canceled' ? 'Offer canceled' : 'Cancel offer',
    text:
      panel === 'canceled'
        ? `Your offer of ${amount} is canceled.`
        : panel === 'recordFailed'
          ? 'Your offer is canceled on the blockchain. We could not save it just now; it shows as canceled within a few minutes anyway.'
          : `Withdraw your offer of ${amount}? The owner can no longer accept it.`,
    busy,
    status: snapshot.matches('signing')
      ? 'Approve the cancel in your wallet, then wait for the blockchain…'
      : snapshot.matches('recording')
        ? 'Saving…'
        : null,
    error: context.error ? errorMessage(context.error) : null,
    closeLabel: busy
      ? 'Waiting for the wallet…'
      : panel === 'canceled'
        ? 'Done'
        : panel === 'confirming'
          ? 'Keep offer'
          : 'Close',
    getDialogProps: () => dialogProps(can('offer.close'), () => send({ type: 'offer.close' })),
    getConfirmButtonProps: () => button('offer.cancel', busy),
    getRetryButtonProps: () => button('offer.retry'),
    getCloseButtonProps: () => button('offer.close'),
  };
}
