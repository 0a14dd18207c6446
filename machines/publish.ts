import { assign, emit, fromPromise, type SnapshotFrom, setup } from 'xstate';
import type { BlueprintJson } from '#domain/catalog';
import { timings } from '#domain/constants';
import { type ApiErrorBody, ErrorCode, errorMessage, toErrorBody } from '#domain/errors';

/**
 * Publish a draft (a draft's "Publish" action on the dashboard): confirm, with the warning that the
 * NFT cannot be edited once on chain; set the status to ready to sell (the machine emits
 * `publish.started`: the list shows the item as publishing); then poll the blueprint every
 * `pollInterval` (2 s) up to `publishPollMaxTries` (50) times until the status changes. Active →
 * published. Back to a draft (the server's publishing job gave up) → failed. Still pending after the
 * last poll → failed with "Blueprint state check timed out", shown as the unknown error's text.
 * The machine ends when the dialog closes; its output says whether the item changed.
 */
export interface PublishInput {
  blueprintId: string;
  title: string;
}
export interface PublishContext extends PublishInput {
  polls: number;
  blueprint: BlueprintJson | null;
  error: ApiErrorBody | null;
}
export type PublishEvent =
  | { type: 'publish.confirm' }
  | { type: 'publish.cancel' }
  | { type: 'publish.retry' }
  | { type: 'publish.close' };
export interface PublishOutput {
  blueprint: BlueprintJson | null;
  /** The status was set: the list should be read again (false when the person said "Not yet"). */
  changed: boolean;
}
/** Emitted once the status is set and the item is being put on chain. */
export type PublishEmitted = { type: 'publish.started' };

export const PUBLISH_TIMEOUT_MESSAGE = 'Blueprint state check timed out';
type Check = Pick<BlueprintJson, 'state' | 'status'>;

export const publishMachine = setup({
  types: {
    context: {} as PublishContext,
    events: {} as PublishEvent,
    input: {} as PublishInput,
    output: {} as PublishOutput,
    emitted: {} as PublishEmitted,
    tags: {} as 'busy',
  },
  actors: {
    /** PATCH blueprints/{id} { status: readyToSell }. */
    setReadyToSell: fromPromise<BlueprintJson, { blueprintId: string }>(async () => {
      throw new Error('setReadyToSell not provided');
    }),
    /** GET blueprints/{id}. */
    fetchBlueprint: fromPromise<BlueprintJson, { blueprintId: string }>(async () => {
      throw new Error('fetchBlueprint not provided');
    }),
  },
  guards: {
    stillPending: (_, blueprint: Check) => blueprint.status === 'readyToSell',
    isActive: (_, blueprint: Check) => blueprint.state === 'active' || blueprint.state === 'printed',
    pollsLeft: ({ context }) => context.polls < timings.publishPollMaxTries,
    serverPublishing: ({ context }) => context.blueprint?.status === 'readyToSell',
  },
  actions: {
    /** Tells the page the item is live (toast, list refresh). */
    announcePublished: () => {},
  },
  delays: {
    pollInterval: timings.publishPollMs,
  },
}).createMachine({
  id: 'publish',
  context: ({ input }) => ({ ...input, polls: 0, blueprint: null, error: null }),
  initial: 'confirming',
  states: {
    confirming: {
      on: {
        'publish.confirm': 'settingStatus',
        'publish.cancel': 'canceled',
      },
    },
    settingStatus: {
      tags: 'busy',
      entry: assign({ polls: 0, error: null }),
      invoke: {
        id: 'setReadyToSell',
        src: 'setReadyToSell',
        input: ({ context }) => ({ blueprintId: context.blueprintId }),
        onDone: {
          target: 'waiting',
          actions: [assign({ blueprint: ({ event }) => event.output }), emit({ type: 'publish.started' })],
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    waiting: {
      tags: 'busy',
      after: {
        pollInterval: [
          { guard: 'pollsLeft', target: 'checking' },
          {
            target: 'failed',
            actions: assign({
              error: { code: ErrorCode.UNKNOWN, message: PUBLISH_TIMEOUT_MESSAGE },
            }),
          },
        ],
      },
    },
    checking: {
      tags: 'busy',
      entry: assign({ polls: ({ context }) => context.polls + 1 }),
      invoke: {
        id: 'fetchBlueprint',
        src: 'fetchBlueprint',
        input: ({ context }) => ({ blueprintId: context.blueprintId }),
        onDone: [
          {
            guard: { type: 'stillPending', params: ({ event }) => event.output },
            target: 'waiting',
            actions: assign({ blueprint: ({ event }) => event.output }),
          },
          {
            guard: { type: 'isActive', params: ({ event }) => event.output },
            target: 'published',
            actions: [assign({ blueprint: ({ event }) => event.output }), 'announcePublished'],
          },
          {
            target: 'failed',
            actions: assign({
              blueprint: ({ event }) => event.output,
              error: { code: 'PUBLISH_FAILED', message: '' },
            }),
          },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorBody(event.error) }) },
      },
    },
    failed: {
      on: {
        'publish.retry': [
          // Timed out while the server still publishes: keep polling; otherwise ask again.
          {
            guard: 'serverPublishing',
            target: 'waiting',
            actions: assign({ polls: 0, error: null }),
          },
          { target: 'confirming' },
        ],
        'publish.close': 'closed',
      },
    },
    published: {
      on: { 'publish.close': 'closed' },
    },
    canceled: { type: 'final' },
    closed: { type: 'final' },
  },
  output: ({ context }) => ({ blueprint: context.blueprint, changed: context.blueprint !== null }),
});

/**
 * The dialog's panel: the warning with Publish and "Not yet", the wait while the item goes on chain,
 * the published note, the failure with "Try again", or nothing once the dialog has ended.
 */
export type PublishPanel = 'confirming' | 'working' | 'published' | 'failed' | 'ended';
export interface PublishView {
  panel: PublishPanel;
  title: string;
  busy: boolean;
  /** What the published panel says. */
  note: string | null;
  /** "Check 3 of 50." while polling. */
  progress: string | null;
  error: string | null;
  /** The dialog can be closed (not while something runs). */
  canClose: boolean;
  confirm: () => void;
  retry: () => void;
  /** "Not yet" before publishing, Close or Done after. */
  close: () => void;
}

export function connectPublish(
  snapshot: SnapshotFrom<typeof publishMachine>,
  send: (event: PublishEvent) => void,
): PublishView {
  const { title, polls, error } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  const canConfirm = snapshot.can({ type: 'publish.confirm' });
  const canRetry = snapshot.can({ type: 'publish.retry' });
  const panel: PublishPanel =
    snapshot.status === 'done'
      ? 'ended'
      : canConfirm
        ? 'confirming'
        : canRetry
          ? 'failed'
          : busy
            ? 'working'
            : 'published';
  return {
    panel,
    title: panel === 'published' ? 'Published' : `Publish “${title}”?`,
    busy,
    note:
      panel === 'published' ? `“${title}” is active: it is on your storefront and in the marketplace.` : null,
    progress: busy && polls > 0 ? `Check ${polls} of ${timings.publishPollMaxTries}.` : null,
    error: panel === 'failed' ? errorMessage(error) : null,
    canClose: snapshot.can({ type: 'publish.cancel' }) || snapshot.can({ type: 'publish.close' }),
    confirm: () => send({ type: 'publish.confirm' }),
    retry: () => send({ type: 'publish.retry' }),
    close: () => send({ type: canConfirm ? 'publish.cancel' : 'publish.close' }),
  };
}
