import * as v from 'valibot';
import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import { FlowAddress } from '#domain/schemas/accounts';
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

/**
 * Transfer: the owner picks one or more collectibles, enters the recipient's Flow address and signs
 * one transaction that moves them all or none. The chain indexer then moves them to the recipient in
 * the product's records.
 *
 * The flow ends with its output: `{ changed: true }` once the person closes the "sent" panel,
 * `{ changed: false }` when they close it before.
 */
export interface TransferNftsInput {
  ids: string[];
  walletAddress: string;
}
export interface TransferNftsContext extends TransferNftsInput {
  recipient: string;
  error: ApiErrorBody | null;
}
export type TransferNftsEvent =
  | { type: 'transfer.recipient.change'; value: string }
  | { type: 'transfer.submit' }
  | { type: 'transfer.close' };
/** Whether the collectibles left: the page reloads them. */
export interface TransferNftsOutput {
  changed: boolean;
}

const normalized = (address: string) => address.trim().toLowerCase();

export const transferNftsMachine = setup({
  types: {
    context: {} as TransferNftsContext,
    events: {} as TransferNftsEvent,
    input: {} as TransferNftsInput,
    output: {} as TransferNftsOutput,
    tags: {} as 'busy',
  },
  actors: {
    /** The batch-transfer transaction, signed in the owner's wallet and awaited until sealed. */
    transferNfts: fromPromise<unknown, { address: string; to: string; ids: string[] }>(async () => {
      throw new Error('transferNfts not provided');
    }),
  },
  guards: {
    recipientValid: ({ context }) => v.is(FlowAddress, normalized(context.recipient)),
    recipientIsSelf: ({ context }) => normalized(context.recipient) === context.walletAddress,
  },
  actions: {
    /** Tells the page the collectibles left (refresh, toast). */
    announceTransferred: () => {},
  },
}).createMachine({
  id: 'transferNfts',
  context: ({ input }) => ({ ...input, recipient: '', error: null }),
  initial: 'editing',
  output: ({ event }) => event.output as TransferNftsOutput,
  states: {
    editing: {
      on: {
        'transfer.recipient.change': {
          actions: assign({ recipient: ({ event }) => event.value, error: null }),
        },
        'transfer.submit': [
          {
            guard: 'recipientIsSelf',
            actions: assign({
              error: () => ({ code: ErrorCode.TRANSFER_SELF, field: 'recipient', message: '' }),
            }),
          },
          { guard: 'recipientValid', target: 'signing', actions: assign({ error: null }) },
          {
            actions: assign({
              error: () => ({ code: ErrorCode.INVALID_VALUE, field: 'recipient', message: '' }),
            }),
          },
        ],
        'transfer.close': 'closed',
      },
    },
    signing: {
      tags: ['busy'],
      invoke: {
        id: 'transferNfts',
        src: 'transferNfts',
        input: ({ context }) => ({
          address: context.walletAddress,
          to: normalized(context.recipient),
          ids: context.ids,
        }),
        onDone: { target: 'transferred', actions: 'announceTransferred' },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    /** Sent: the panel says so until the person closes it. */
    transferred: { on: { 'transfer.close': 'done' } },
    done: { type: 'final', output: { changed: true } },
    closed: { type: 'final', output: { changed: false } },
  },
});

export type TransferNftsPanel = 'form' | 'transferred' | 'done';

export interface TransferNftsView {
  panel: TransferNftsPanel;
  title: string;
  busy: boolean;
  recipient: string;
  recipientError: string | null;
  error: string | null;
  /** The "sent" panel's address, as the transaction used it. */
  sentTo: string;
  status: string | null;
  closeLabel: string;
  /** The dialog: Escape and its close button close it when the machine allows. */
  getDialogProps: () => DialogProps;
  /** The recipient form: its submit sends the transfer when the machine takes it. */
  getFormProps: () => FormProps;
  /** The recipient's address field (read-only while the wallet signs). */
  getRecipientInputProps: () => TextInputProps;
  /** Transfer, the form's submit button (busy while the wallet signs). */
  getSubmitButtonProps: () => ButtonProps;
  /** Cancel or Done (`closeLabel`). */
  getCloseButtonProps: () => ButtonProps;
}

export function connectTransferNfts(
  snapshot: SnapshotFrom<typeof transferNftsMachine>,
  send: (event: TransferNftsEvent) => void,
): TransferNftsView {
  const { context } = snapshot;
  const busy = snapshot.hasTag('busy');
  const count = context.ids.length;
  const what = count === 1 ? 'this collectible' : `${count} collectibles`;
  const panel: TransferNftsPanel =
    snapshot.status === 'done' ? 'done' : snapshot.matches('transferred') ? 'transferred' : 'form';
  const fieldError = context.error?.field === 'recipient';
  const canClose = snapshot.can({ type: 'transfer.close' });
  const canSubmit = snapshot.can({ type: 'transfer.submit' });
  const close = () => send({ type: 'transfer.close' });
  return {
    panel,
    title: panel === 'transferred' ? 'Transfer sent' : `Transfer ${what}`,
    busy,
    recipient: context.recipient,
    recipientError: fieldError && context.error ? errorMessage(context.error) : null,
    error: !fieldError && context.error ? errorMessage(context.error) : null,
    sentTo: normalized(context.recipient),
    status: busy ? 'Approve the transfer in your wallet…' : null,
    closeLabel: busy ? 'Waiting for the wallet…' : 'Cancel',
    getDialogProps: () => dialogProps(canClose, close),
    getFormProps: () => formProps(canSubmit, () => send({ type: 'transfer.submit' })),
    getRecipientInputProps: () =>
      textInputProps({
        value: context.recipient,
        readOnly: busy,
        error: fieldError && context.error ? errorMessage(context.error) : null,
        change: (value) => send({ type: 'transfer.recipient.change', value }),
      }),
    getSubmitButtonProps: () => buttonProps({ type: 'submit', disabled: !canSubmit, busy }),
    getCloseButtonProps: () => buttonProps({ onClick: close, disabled: !canClose }),
  };
}
