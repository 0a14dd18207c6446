import * as v from 'valibot';
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import { formatUsd, parseDollars, shortfallCents } from '#domain/money';
import {
  OFFER_EXPIRY_DAYS,
  OFFER_MAX_CENTS,
  OFFER_MIN_CENTS,
  OfferDraft,
  type OfferExpiryDays,
} from '#domain/schemas/offers';
import { issueToError } from '#domain/validation';
import {
  type ButtonProps,
  buttonProps,
  type CheckboxProps,
  type DialogProps,
  dialogProps,
  type FormProps,
  formProps,
  type TextInputProps,
  textInputProps,
} from './props';

/**
 * "Make offer", offered on an NFT to a signed-in collector with a linked wallet who does not own it
 * (the page asks a visitor to sign in first and shows the owner no such button). The buyer types an
 * amount in USD ($1 to $10,000, FUSD at one to one) and picks how long it stands (1, 3, 7 or 30 days),
 * reviews it, signs it in the wallet (the offer is a resource in the buyer's own account holding a
 * capability to withdraw at most that amount: no funds move now), waits for the seal, and the product
 * API records it. The buyer's FUSD balance is read once when the dialog opens; a balance below the
 * amount is said, not refused: the offer stands, and reads "no longer funded" until the balance covers it.
 *
 * The flow ends with its output: `{ changed: true }` once the person closes the "offer made" panel,
 * `{ changed: false }` when they close it before.
 */
export interface MakeOfferInput {
  nft: { id: string };
  walletAddress: string;
}
export interface MakeOfferContext extends MakeOfferInput {
  amount: string;
  expiryDays: OfferExpiryDays;
  /** The amount reviewed and signed, in cents. */
  amountCents: number;
  /** The buyer's FUSD balance in cents: null until read, or when it could not be read. */
  balanceCents: number | null;
  /** Whether the balance's read has answered (with the balance or a failure). */
  balanceRead: boolean;
  transactionId: string | null;
  error: ApiErrorBody | null;
}
export type MakeOfferEvent =
  | { type: 'offer.amount.change'; value: string }
  | { type: 'offer.expiry.change'; days: OfferExpiryDays }
  | { type: 'offer.review' }
  | { type: 'offer.back' }
  | { type: 'offer.confirm' }
  | { type: 'offer.retry' }
  | { type: 'offer.close' };
/** Whether an offer was made: the page reloads its offers. */
export interface MakeOfferOutput {
  changed: boolean;
}
export interface MakeOfferRequest {
  address: string;
  nftId: string;
  amountCents: number;
  expiryDays: OfferExpiryDays;
}

/** How long an offer stands when the buyer picks nothing else. */
export const DEFAULT_OFFER_EXPIRY_DAYS: OfferExpiryDays = 7;

/** The draft's first problem as an error body (`INVALID_VALUE` on `amount` or `expiryDays`), or null. */
function draftError(context: MakeOfferContext): ApiErrorBody | null {
  const result = v.safeParse(OfferDraft, {
    nftId: context.nft.id,
    amount: parseDollars(context.amount),
    expiryDays: context.expiryDays,
  });
  return result.success ? null : issueToError(result.issues[0]);
}

export const makeOfferMachine = setup({
  types: {
    context: {} as MakeOfferContext,
    events: {} as MakeOfferEvent,
    input: {} as MakeOfferInput,
    output: {} as MakeOfferOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** The buyer's FUSD balance in cents (a chain script: cheap, nothing to sign). */
    readBalance: fromPromise<number, { address: string }>(async () => {
      throw new Error('readBalance not provided');
    }),
    /** The make-offer transaction, signed in the buyer's wallet and awaited until sealed. */
    makeOffer: fromPromise<{ transactionId: string }, MakeOfferRequest>(async () => {
      throw new Error('makeOffer not provided');
    }),
    /** POST offers/actions/record with the sealed transaction. */
    recordOffer: fromPromise<unknown, { transactionId: string }>(async () => {
      throw new Error('recordOffer not provided');
    }),
  },
  guards: {
    draftValid: ({ context }) => draftError(context) === null,
    /**
     * An offer sent but not sealed yet (SEAL_TIMEOUT) is waited for again by the next confirm: its
     * terms stay the ones sent, so the review cannot go back to change them.
     */
    termsEditable: ({ context }) => context.error?.code !== ErrorCode.SEAL_TIMEOUT,
  },
  actions: {
    /** Tells the page an offer was made (refresh, toast). */
    announceMade: () => {},
  },
}).createMachine({
  id: 'makeOffer',
  context: ({ input }) => ({
    ...input,
    amount: '',
    expiryDays: DEFAULT_OFFER_EXPIRY_DAYS,
    amountCents: 0,
    balanceCents: null,
    balanceRead: false,
    transactionId: null,
    error: null,
  }),
  // The balance is read while the dialog is open, whatever panel it shows.
  invoke: {
    id: 'readBalance',
    src: 'readBalance',
    input: ({ context }) => ({ address: context.walletAddress }),
    onDone: { actions: assign({ balanceCents: ({ event }) => event.output, balanceRead: true }) },
    // Without a balance the dialog just does not show one.
    onError: { actions: assign({ balanceRead: true }) },
  },
  initial: 'editing',
  output: ({ event }) => event.output as MakeOfferOutput,
  states: {
    editing: {
      on: {
        'offer.amount.change': {
          actions: assign({ amount: ({ event }) => event.value, error: null }),
        },
        'offer.expiry.change': {
          actions: assign({ expiryDays: ({ event }) => event.days, error: null }),
        },
        'offer.review': [
          {
            guard: 'draftValid',
            target: 'reviewing',
            actions: assign({ amountCents: ({ context }) => parseDollars(context.amount)!, error: null }),
          },
          { actions: assign({ error: ({ context }) => draftError(context) }) },
        ],
        'offer.close': 'closed',
      },
    },
    reviewing: {
      on: {
        'offer.confirm': { target: 'signing', actions: assign({ error: null }) },
        'offer.back': { guard: 'termsEditable', target: 'editing', actions: assign({ error: null }) },
        'offer.close': 'closed',
      },
    },
    signing: {
      tags: ['busy'],
      invoke: {
        id: 'makeOffer',
        src: 'makeOffer',
        input: ({ context }) => ({
          address: context.walletAddress,
          nftId: context.nft.id,
          amountCents: context.amountCents,
          expiryDays: context.expiryDays,
        }),
        onDone: {
          target: 'recording',
          actions: assign({ transactionId: ({ event }) => event.output.transactionId }),
        },
        onError: { target: 'reviewing', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    recording: {
      tags: ['busy'],
      invoke: {
        id: 'recordOffer',
        src: 'recordOffer',
        input: ({ context }) => ({ transactionId: context.transactionId! }),
        onDone: { target: 'made', actions: 'announceMade' },
        onError: {
          target: 'recordFailed',
          actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
        },
      },
    },
    /**
     * The offer is on chain but the API did not record it. Retrying records it; closing is safe too:
     * the chain indexer picks the offer up within minutes.
     */
    recordFailed: {
      on: {
        'offer.retry': { target: 'recording', actions: assign({ error: null }) },
        'offer.close': 'closed',
      },
    },
    /** Made and recorded: the panel says so until the person closes it. */
    made: { on: { 'offer.close': 'done' } },
    done: { type: 'final', output: { changed: true } },
    closed: { type: 'final', output: { changed: false } },
  },
});

/** The panel the dialog shows: the form (editing), the review (also while signing and recording). */
export type MakeOfferPanel = 'form' | 'review' | 'made' | 'recordFailed' | 'done';

const offerPanel = (snapshot: SnapshotFrom<typeof makeOfferMachine>): MakeOfferPanel => {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('editing')) return 'form';
  if (snapshot.matches('made')) return 'made';
  if (snapshot.matches('recordFailed')) return 'recordFailed';
  return 'review';
};

export interface MakeOfferView {
  panel: MakeOfferPanel;
  title: string;
  busy: boolean;
  /** The amount field's error and the expiry's, under each; any other error as an alert. */
  amountError: string | null;
  expiryError: string | null;
  error: string | null;
  /** What is under way while busy. */
  status: string | null;
  /** The buyer's FUSD balance ("$25"), once read. */
  balance: string | null;
  /** Said when the balance read does not cover the amount typed (the offer can still be made). */
  balanceNote: string | null;
  /** The review's lines: the amount and how long the offer stands. */
  review: { amount: string; expiry: string };
  /** The "offer made" panel's text. */
  madeText: string;
  expiryOptions: ReadonlyArray<{ days: OfferExpiryDays; label: string }>;
  getDialogProps: () => DialogProps;
  /** The amount form: its submit goes to the review. */
  getFormProps: () => FormProps;
  getAmountInputProps: () => TextInputProps;
  /** One radio of the expiry choice. */
  getExpiryOptionProps: (days: OfferExpiryDays) => CheckboxProps;
  getReviewButtonProps: () => ButtonProps;
  getBackButtonProps: () => ButtonProps;
  /** Make offer, on the review (busy while the wallet signs and it is saved). */
  getConfirmButtonProps: () => ButtonProps;
  getRetryButtonProps: () => ButtonProps;
  /** Cancel, Close or Done. */
  getCloseButtonProps: () => ButtonProps;
}

/** "1 day", "7 days". */
export const expiryLabel = (days: number) => (days === 1 ? '1 day' : `${days} days`);

export function connectMakeOffer(
  snapshot: SnapshotFrom<typeof makeOfferMachine>,
  send: (event: MakeOfferEvent) => void,
): MakeOfferView {
  const { context } = snapshot;
  const panel = offerPanel(snapshot);
  const busy = snapshot.hasTag('busy');
  const field = context.error?.field;
  const fieldText = (name: string) => (field === name && context.error ? errorMessage(context.error) : null);
  const amountError =
    field === 'amount'
      ? `Enter an offer between ${formatUsd(OFFER_MIN_CENTS)} and ${formatUsd(OFFER_MAX_CENTS)}.`
      : null;
  const typed = panel === 'form' ? parseDollars(context.amount) : context.amountCents;
  const short =
    context.balanceCents !== null && typed !== null && typed >= OFFER_MIN_CENTS && typed <= OFFER_MAX_CENTS
      ? shortfallCents(typed, context.balanceCents)
      : 0;
  const editable = snapshot.can({ type: 'offer.amount.change', value: context.amount });
  const can = (type: 'offer.review' | 'offer.back' | 'offer.confirm' | 'offer.retry' | 'offer.close') =>
    snapshot.can({ type });
  const button = (type: Parameters<typeof can>[0]) =>
    buttonProps({ onClick: () => send({ type }), disabled: !can(type) });
  return {
    panel,
    title: panel === 'made' ? 'Offer made' : panel === 'review' ? 'Review your offer' : 'Make an offer',
    busy,
    amountError,
    expiryError: fieldText('expiryDays'),
    error: !field && context.error ? errorMessage(context.error) : null,
    status: snapshot.matches('signing')
      ? 'Approve the offer in your wallet, then wait for the blockchain…'
      : snapshot.matches('recording')
        ? 'Saving your offer…'
        : null,
    balance: context.balanceCents === null ? null : formatUsd(context.balanceCents),
    balanceNote:
      short > 0
        ? `Your balance does not cover this offer (${formatUsd(short)} short). It can be made, but the owner can accept it only once your balance covers it.`
        : null,
    review: { amount: formatUsd(context.amountCents), expiry: expiryLabel(context.expiryDays) },
    madeText: `You offered ${formatUsd(context.amountCents)} for ${expiryLabel(context.expiryDays)}. The owner can accept it until then; nothing leaves your wallet unless they do, and you can cancel it at any time.`,
    expiryOptions: OFFER_EXPIRY_DAYS.map((days) => ({ days, label: expiryLabel(days) })),
    getDialogProps: () => dialogProps(can('offer.close'), () => send({ type: 'offer.close' })),
    getFormProps: () => formProps(can('offer.review'), () => send({ type: 'offer.review' })),
    getAmountInputProps: () =>
      textInputProps({
        value: context.amount,
        readOnly: !editable,
        error: amountError,
        change: (value) => send({ type: 'offer.amount.change', value }),
      }),
    getExpiryOptionProps: (days) => ({
      checked: context.expiryDays === days,
      disabled: !editable,
      onChange: () => send({ type: 'offer.expiry.change', days }),
      'data-state': context.expiryDays === days ? 'checked' : 'unchecked',
    }),
    getReviewButtonProps: () => buttonProps({ type: 'submit', disabled: !can('offer.review') }),
    getBackButtonProps: () => button('offer.back'),
    getConfirmButtonProps: () =>
      buttonProps({ onClick: () => send({ type: 'offer.confirm' }), disabled: !can('offer.confirm'), busy }),
    getRetryButtonProps: () => button('offer.retry'),
    getCloseButtonProps: () => button('offer.close'),
  };
}
