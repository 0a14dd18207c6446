import * as v from 'valibot';
import { assign, fromPromise, setup } from 'xstate';
import { type ApiErrorBody, ErrorCode, toErrorBody } from '#domain/errors';
import { FlowAddress } from '#domain/schemas/accounts';

/**
 * Transfer (SPEC §1 "collectors … transfer", §7 batch transfer): the owner picks collectibles, enters
 * the recipient's Flow address and signs one transaction that moves them all or none. The chain
 * indexer then moves them to the recipient in the product's records.
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

const normalized = (address: string) => address.trim().toLowerCase();

export const transferNftsMachine = setup({
  types: {
    context: {} as TransferNftsContext,
    events: {} as TransferNftsEvent,
    input: {} as TransferNftsInput,
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
    transferred: { type: 'final' },
    closed: { type: 'final' },
  },
});
