import { publishMachine } from '../machines/publish';
import { makeBlueprint } from './fixtures';
import type { MachineModel } from './harness';

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
};
