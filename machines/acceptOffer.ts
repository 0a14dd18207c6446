import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd } from '#domain/money';
import { sellerNetCents } from '#domain/nft';
import { type ButtonProps, buttonProps, type DialogProps, dialogProps } from './props';

/**
 * "Accept", offered to an NFT's owner on an open offer: the owner reviews the amount and what they
 * receive after the creator's royalty and the platform fee (split as a resale's), signs the accept
 * in the wallet (one transaction moves the NFT to the buyer and the FUSD to the seller, the creator
 * and the platform), waits for the seal, and the product API records the sale. As to list, only an
 * owner whose identity check (KYC) is approved may accept; the others are told to verify first.
 * An offer whose expiry passed, or whose buyer's balance no longer covers it, is refused by the chain:
 * the dialog says so and offers no retry.
 *
 * The flow ends with its output: `{ changed: true }` once the person closes the "accepted" panel,
 * `{ changed: false }` when they close it before.
 */
export interface AcceptOfferInput {
  offer: { chainOfferId: string; amount: number; buyerAddress: string };
  walletAddress: string;
  kycApproved: boolean;
  /** The blueprint's rates: the seller's net is the amount minus these shares. */
  royaltyPercent: number;
  platformFeePercent: number;
}
export interface AcceptOfferContext extends AcceptOfferInput {
  transactionId: string | null;
  error: ApiErrorBody | null;
}
export type AcceptOfferEvent = { type: 'offer.accept' } | { type: 'offer.retry' } | { type: 'offer.close' };
/** Whether the NFT changed hands: the page reloads it and its offers. */
export interface AcceptOfferOutput {
  changed: boolean;
}
export interface AcceptOfferRequest {
  address: string;
  buyer: string;
  chainOfferId: string;
}

/** Refusals of the chain that another try only repeats. */
const FINAL_REFUSALS: readonly string[] = [ErrorCode.OFFER_EXPIRED, ErrorCode.OFFER_UNFUNDED];

export const acceptOfferMachine = setup({
  types: {
    context: {} as AcceptOfferContext,
    events: {} as AcceptOfferEvent,
    input: {} as AcceptOfferInput,
    output: {} as AcceptOfferOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** The accept-offer transaction, signed in the owner's wallet and awaited until sealed. */
    acceptOffer: fromPromise<{ transactionId: string }, AcceptOfferRequest>(async () => {
      throw new Error('acceptOffer not provided');
    }),
    /** POST offers/actions/record with the sealed transaction. */
    recordOffer: fromPromise<unknown, { transactionId: string }>(async () => {
      throw new Error('recordOffer not provided');
    }),
  },
  guards: {
    kycApproved: ({ context }) => context.kycApproved,
    refusedForGood: ({ event }) =>
      FINAL_REFUSALS.includes(toErrorBody((event as { error?: unknown }).error).code),
  },
  actions: {
    /** Tells the page the NFT was sold to the buyer (refresh, toast). */
    announceAccepted: () => {},
  },
}).createMachine({
  id: 'acceptOffer',
  context: ({ input }) => ({ ...input, transactionId: null, error: null }),
  initial: 'start',
  output: ({ event }) => event.output as AcceptOfferOutput,
  states: {
    start: {
      always: [{ guard: 'kycApproved', target: 'reviewing' }, { target: 'kycRequired' }],
    },
    kycRequired: {
      entry: assign({ error: () => ({ code: ErrorCode.KYC_REQUIRED, message: '' }) }),
      on: { 'offer.close': 'closed' },
    },
    reviewing: {
      on: {
        'offer.accept': { target: 'signing', actions: assign({ error: null }) },
        'offer.close': 'closed',
      },
    },
    signing: {
      tags: ['busy'],
      invoke: {
        id: 'acceptOffer',
        src: 'acceptOffer',
        input: ({ context }) => ({
          address: context.walletAddress,
          buyer: context.offer.buyerAddress,
          chainOfferId: context.offer.chainOfferId,
        }),
        onDone: {
          target: 'recording',
          actions: assign({ transactionId: ({ event }) => event.output.transactionId }),
        },
        onError: [
          {
            guard: 'refusedForGood',
            target: 'refused',
            actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
          },
          { target: 'reviewing', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
        ],
      },
    },
    recording: {
      tags: ['busy'],
      invoke: {
        id: 'recordOffer',
        src: 'recordOffer',
        input: ({ context }) => ({ transactionId: context.transactionId! }),
        onDone: { target: 'accepted', actions: 'announceAccepted' },
        onError: {
          target: 'recordFailed',
          actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
        },
      },
    },
    /** Expired or no longer funded: nothing moved, and accepting again would only fail again. */
    refused: { on: { 'offer.close': 'closed' } },
    /**
     * Sold on chain but the API did not record it. Retrying records it; closing is safe too: the
     * chain indexer records the sale within minutes.
     */
    recordFailed: {
      on: {
        'offer.retry': { target: 'recording', actions: assign({ error: null }) },
        'offer.close': 'done',
      },
    },
    /** Sold and recorded: the panel says so until the person closes it. */
    accepted: { on: { 'offer.close': 'done' } },
    done: { type: 'final', output: { changed: true } },
    closed: { type: 'final', output: { changed: false } },
  },
});

export type AcceptOfferPanel = 'kycRequired' | 'review' | 'refused' | 'recordFailed' | 'accepted' | 'done';

const acceptPanel = (snapshot: SnapshotFrom<typeof acceptOfferMachine>): AcceptOfferPanel => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('kycRequired')) return 'kycRequired';
  if (snapshot.matches('refused')) return 'refused';
  if (snapshot.matches('recordFailed')) return 'recordFailed';
  if (snapshot.matches('accepted')) return 'accepted';
  return 'review';
};

export interface AcceptOfferView {
  panel: AcceptOfferPanel;
  title: string;
  busy: boolean;
  error: string | null;
  status: string | null;
  /** The offer's amount, the shares taken from it, and what the seller receives. */
  summary: { amount: string; royalty: string; platformFee: string; net: string };
  /** The text of the panel (what accepting does, that it is done, or what failed). */
  text: string;
  closeLabel: string;
  getDialogProps: () => DialogProps;
  /** Accept offer (busy while the wallet signs and the sale is saved). */
  getAcceptButtonProps: () => ButtonProps;
  getRetryButtonProps: () => ButtonProps;
  getCloseButtonProps: () => ButtonProps;
}

const acceptTexts: Record<AcceptOfferPanel, string> = {
  kycRequired: 'Verify your identity first: accepting an offer sells your collectible.',
  review:
    'Accepting sells your collectible to the buyer in one transaction: it leaves your wallet and the amount arrives in it.',
  refused:
    "The chain refused it: an offer can be accepted only before its expiry and while the buyer's FUSD balance covers it. Nothing moved: your collectible is still yours.",
  recordFailed:
    'The sale is on the blockchain. We could not save it just now; it appears in your profile within a few minutes anyway.',
  accepted: 'Sold. The collectible is on its way to the buyer and the amount is in your wallet.',
  done: '',
};

export function connectAcceptOffer(
  snapshot: SnapshotFrom<typeof acceptOfferMachine>,
  send: (event: AcceptOfferEvent) => void,
): AcceptOfferView {
  const { context } = snapshot;
  const panel = acceptPanel(snapshot);
  const busy = snapshot.hasTag('busy');
  const can = (type: AcceptOfferEvent['type']) => snapshot.can({ type });
  const button = (type: AcceptOfferEvent['type'], working = false) =>
    buttonProps({ onClick: () => send({ type }), disabled: !can(type), busy: working });
  return {
    panel,
    title: panel === 'accepted' ? 'Offer accepted' : 'Accept offer',
    busy,
    error: context.error ? errorMessage(context.error) : null,
    status: snapshot.matches('signing')
      ? 'Approve the sale in your wallet, then wait for the blockchain…'
      : snapshot.matches('recording')
        ? 'Saving the sale…'
        : null,
    summary: {
      amount: formatUsd(context.offer.amount),
      royalty: `${context.royaltyPercent} %`,
      platformFee: `${context.platformFeePercent} %`,
      net: formatUsd(sellerNetCents(context.offer.amount, context)),
    },
    text: acceptTexts[panel],
    closeLabel: busy
      ? 'Waiting for the wallet…'
      : panel === 'accepted'
        ? 'Done'
        : panel === 'review'
          ? 'Cancel'
          : 'Close',
    getDialogProps: () => dialogProps(can('offer.close'), () => send({ type: 'offer.close' })),
    getAcceptButtonProps: () => button('offer.accept', busy),
    getRetryButtonProps: () => button('offer.retry'),
    getCloseButtonProps: () => button('offer.close'),
  };
}
