import { expect } from 'vitest';
import { ErrorCode, errorMessage } from '#domain/errors';
import { connectPublish, PUBLISH_TIMEOUT_MESSAGE, publishMachine } from '../machines/publish';
import { after, expectCalled, expectNotCalled, expectWorking, outcomes } from './expect';
import { makeBlueprint } from './fixtures';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof publishMachine>;
const view = (o: O) => connectPublish(o.snapshot, () => {});
/** The output says the item changed exactly when its status was set. */
const expectEnded = (o: O) => {
  expect(o.snapshot.status).toBe('done');
  expect(o.snapshot.output?.changed).toBe(outcomes(o, 'done', 'setReadyToSell') > 0);
  expect(view(o).panel).toBe('ended');
};

/** Polls before the timeout in the model (the live machine allows 50; see publish.test.ts). */
export const MODEL_MAX_POLLS = 2;

const draft = makeBlueprint();
export const pending = makeBlueprint({ status: 'readyToSell' });
export const active = makeBlueprint({ state: 'active', status: null });
export const backToDraft = makeBlueprint({ state: 'created', status: null });

export const publishModel: MachineModel<typeof publishMachine> = {
  machine: publishMachine,
  fakes: ['setReadyToSell', 'fetchBlueprint'],
  provide: { guards: { pollsLeft: ({ context }) => context.polls < MODEL_MAX_POLLS } },
  scenarios: [{ name: 'a draft', input: { blueprintId: draft.id, title: draft.title } }],
  events: () => [
    { type: 'publish.confirm' },
    { type: 'publish.cancel' },
    { type: 'publish.retry' },
    { type: 'publish.close' },
    { type: 'xstate.done.actor.setReadyToSell', output: pending },
    {
      type: 'xstate.error.actor.setReadyToSell',
      error: { status: 400, body: { code: 'BLUEPRINT_STATE', field: 'status', message: '' } },
    },
    { type: 'xstate.after.pollInterval.publish.waiting' },
    { type: 'xstate.done.actor.fetchBlueprint', output: pending },
    { type: 'xstate.done.actor.fetchBlueprint', output: active },
    { type: 'xstate.done.actor.fetchBlueprint', output: backToDraft },
    { type: 'xstate.error.actor.fetchBlueprint', error: { code: 'NETWORK_FAILURE' } },
  ],
  serializeState: (s) =>
    JSON.stringify(
      s.status === 'done'
        ? [s.value]
        : [
            s.value,
            s.context.polls,
            s.context.error?.code ?? null,
            s.context.blueprint?.state ?? null,
            s.context.blueprint?.status ?? null,
          ],
    ),
  expect: {
    // The warning first; nothing is sent until the person confirms.
    confirming: (o) => {
      expect(view(o)).toMatchObject({
        panel: 'confirming',
        title: `Publish “${draft.title}”?`,
        canClose: true,
      });
      if (o.event.type === 'xstate.init') expect(o.calls).toEqual([]);
    },
    settingStatus: (o) => {
      expect(o.event.type).toBe('publish.confirm');
      expectWorking(o, 'setReadyToSell', { blueprintId: draft.id });
      expect(view(o)).toMatchObject({ panel: 'working', busy: true, progress: null, canClose: false });
    },
    // Between two reads of the blueprint (every 2 s): the count shown is the reads made so far.
    waiting: (o) => {
      expect(outcomes(o, 'done', 'setReadyToSell')).toBeGreaterThan(0);
      expect(view(o)).toMatchObject({ panel: 'working', busy: true });
      if (o.event.type === 'publish.retry') expect(o.snapshot.context.polls).toBe(0);
      if (after(o, 'done', 'setReadyToSell')) expect(o.snapshot.context.polls).toBe(0);
      if (after(o, 'done', 'fetchBlueprint')) {
        expect(o.event.output).toEqual(pending);
        expect(view(o).progress).toBe(`Check ${o.snapshot.context.polls} of 50.`);
      }
    },
    checking: (o) => {
      expect(o.event.type).toBe('xstate.after.pollInterval.publish.waiting');
      expectWorking(o, 'fetchBlueprint', { blueprintId: draft.id });
      expect(o.snapshot.context.polls).toBe(o.before.context.polls + 1);
      expect(o.snapshot.context.polls).toBeLessThanOrEqual(MODEL_MAX_POLLS);
      expect(view(o).progress).toBe(`Check ${o.snapshot.context.polls} of 50.`);
    },
    // Why it failed: the server's refusal, the item back to a draft, or the timeout after the last read.
    failed: (o) => {
      expect(view(o)).toMatchObject({ panel: 'failed', busy: false, canClose: true });
      if (o.event.type === 'xstate.after.pollInterval.publish.waiting') {
        expect(o.before.context.polls).toBe(MODEL_MAX_POLLS);
        // The timeout is the unknown error, shown with that error's text.
        expect(o.snapshot.context.error).toEqual({
          code: ErrorCode.UNKNOWN,
          message: PUBLISH_TIMEOUT_MESSAGE,
        });
        expect(view(o).error).toBe('Unknown error occurred');
      }
      if (after(o, 'done', 'fetchBlueprint')) {
        expect(o.event.output).toEqual(backToDraft);
        expect(view(o).error).toBe(errorMessage({ code: 'PUBLISH_FAILED', message: '' }));
      }
      if (after(o, 'error', 'setReadyToSell'))
        expect(view(o).error).toBe(errorMessage({ code: 'BLUEPRINT_STATE', message: '' }));
    },
    published: (o) => {
      expect(o.event).toMatchObject({ type: 'xstate.done.actor.fetchBlueprint', output: active });
      expectCalled(o, 'fetchBlueprint');
      expect(view(o)).toMatchObject({
        panel: 'published',
        title: 'Published',
        note: `“${draft.title}” is active: it is on your storefront and in the marketplace.`,
      });
    },
    canceled: (o) => {
      expect(o.event.type).toBe('publish.cancel');
      if (o.history.filter((e) => e.type === 'publish.confirm').length === 0)
        expectNotCalled(o, 'setReadyToSell');
      expectEnded(o);
    },
    closed: (o) => {
      expect(o.event.type).toBe('publish.close');
      expectEnded(o);
    },
  },
};
