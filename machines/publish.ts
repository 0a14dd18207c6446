import { assign, fromPromise, setup } from 'xstate';
import type { BlueprintJson } from '#domain/catalog';
import { timings } from '#domain/constants';
import { type ApiErrorBody, ErrorCode, toErrorBody } from '#domain/errors';

/**
 * Publish a draft (SPEC §4 "Dashboard actions per state"): confirm, with the warning that the NFT
 * cannot be edited once on chain; set the status to ready to sell; then poll the blueprint every
 * `pollInterval` (2 s) up to `maxPolls` (50) times until the status changes. Active → published.
 * Back to a draft (the server's publishing job gave up) → failed. Still pending after the last poll
 * → failed with "Blueprint state check timed out", shown as errors.unknown (SPEC §8).
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
}

export const PUBLISH_TIMEOUT_MESSAGE = 'Blueprint state check timed out';
type Check = Pick<BlueprintJson, 'state' | 'status'>;

export const publishMachine = setup({
  types: {
    context: {} as PublishContext,
    events: {} as PublishEvent,
    input: {} as PublishInput,
    output: {} as PublishOutput,
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
        onDone: { target: 'waiting', actions: assign({ blueprint: ({ event }) => event.output }) },
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
  output: ({ context }) => ({ blueprint: context.blueprint }),
});
