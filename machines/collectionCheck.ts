import { assign, fromPromise, setup } from 'xstate';
import { type ApiErrorBody, toErrorBody } from '#domain/errors';

/**
 * "Collection required" (SPEC §4 "Pressing buy" step 4): checks that the wallet holds a VitrineNFT
 * collection and an FUSD vault; if not, the user sets them up with a wallet transaction, and the
 * flow continues (the machine ends in `ready`, where the caller resumes its previous target).
 */
export interface CollectionCheckInput {
  address: string;
}
export interface CollectionCheckContext extends CollectionCheckInput {
  error: ApiErrorBody | null;
}
export type CollectionCheckEvent = { type: 'collection.setup' } | { type: 'collection.retry' };

export const collectionCheckMachine = setup({
  types: {
    context: {} as CollectionCheckContext,
    events: {} as CollectionCheckEvent,
    input: {} as CollectionCheckInput,
    tags: {} as 'busy',
  },
  actors: {
    checkCollection: fromPromise<{ ready: boolean }, { address: string }>(async () => {
      throw new Error('checkCollection not provided');
    }),
    /** The account-setup transaction, signed in the wallet and awaited until sealed. */
    setupCollection: fromPromise<void, { address: string }>(async () => {
      throw new Error('setupCollection not provided');
    }),
  },
  guards: {
    collectionReady: (_, output: { ready: boolean }) => output.ready,
  },
}).createMachine({
  id: 'collectionCheck',
  context: ({ input }) => ({ address: input.address, error: null }),
  initial: 'checking',
  states: {
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'checkCollection',
        src: 'checkCollection',
        input: ({ context }) => ({ address: context.address }),
        onDone: [
          { guard: { type: 'collectionReady', params: ({ event }) => event.output }, target: 'ready' },
          { target: 'required' },
        ],
        onError: {
          target: 'checkFailed',
          actions: assign({ error: ({ event }) => toErrorBody(event.error) }),
        },
      },
    },
    checkFailed: {
      on: { 'collection.retry': { target: 'checking', actions: assign({ error: null }) } },
    },
    required: {
      on: { 'collection.setup': { target: 'settingUp', actions: assign({ error: null }) } },
    },
    settingUp: {
      tags: ['busy'],
      invoke: {
        id: 'setupCollection',
        src: 'setupCollection',
        input: ({ context }) => ({ address: context.address }),
        onDone: 'checking',
        onError: { target: 'required', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    ready: { type: 'final' },
  },
});
