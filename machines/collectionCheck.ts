import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';

/**
 * "Collection required", the step before buying: checks that the wallet holds a VitrineNFT
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

/** The collection panel's step: what it says and which button it offers. */
export type CollectionStep = 'checking' | 'checkFailed' | 'required' | 'settingUp' | 'ready';
const stepTexts: Record<CollectionStep, string> = {
  ready: 'Your collection is ready: items you buy or claim are minted to this wallet.',
  checking: 'Checking your collection…',
  settingUp: 'Approve the setup in your wallet; it takes a few seconds on chain.',
  checkFailed: 'We could not check your collection.',
  required:
    'Collection required: your wallet needs a Vitrine collection and an FUSD balance before it can hold items.',
};

export interface CollectionCheckView {
  step: CollectionStep;
  text: string;
  busy: boolean;
  /** "Set up collection": offered while the collection is missing, loading while it is set up. */
  setup: { enabled: boolean; loading: boolean } | null;
  canRetry: boolean;
  error: string | null;
  setUp: () => void;
  retry: () => void;
}

export function connectCollectionCheck(
  snapshot: SnapshotFrom<typeof collectionCheckMachine>,
  send: (event: CollectionCheckEvent) => void,
): CollectionCheckView {
  const step = snapshot.value as CollectionStep;
  const canSetUp = snapshot.can({ type: 'collection.setup' });
  const settingUp = snapshot.hasTag('busy') && step === 'settingUp';
  const { error } = snapshot.context;
  return {
    step,
    text: stepTexts[step],
    busy: snapshot.hasTag('busy'),
    setup: canSetUp || settingUp ? { enabled: canSetUp, loading: settingUp } : null,
    canRetry: snapshot.can({ type: 'collection.retry' }),
    error: error ? errorMessage(error) : null,
    setUp: () => send({ type: 'collection.setup' }),
    retry: () => send({ type: 'collection.retry' }),
  };
}
