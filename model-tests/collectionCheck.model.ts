import { collectionCheckMachine } from '../machines/collectionCheck';
import type { MachineModel } from './harness';

export const collectionCheckModel: MachineModel<typeof collectionCheckMachine> = {
  machine: collectionCheckMachine,
  fakes: ['checkCollection', 'setupCollection'],
  scenarios: [{ name: 'a linked wallet', input: { address: '0x01cf0e2f2f715450' } }],
  events: () => [
    { type: 'xstate.done.actor.checkCollection', output: { ready: true } },
    { type: 'xstate.done.actor.checkCollection', output: { ready: false } },
    { type: 'xstate.error.actor.checkCollection', error: { code: 'NETWORK_FAILURE' } },
    { type: 'collection.retry' },
    { type: 'collection.setup' },
    { type: 'xstate.done.actor.setupCollection', output: undefined },
    { type: 'xstate.error.actor.setupCollection', error: { code: 'TRANSACTION' } },
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.error?.code ?? null]),
};
