import { fusdBalanceMachine } from '../machines/fusdBalance';
import type { MachineModel } from './harness';

export const WALLET = '0x01cf0e2f2f715450';

export const fusdBalanceModel: MachineModel<typeof fusdBalanceMachine> = {
  machine: fusdBalanceMachine,
  fakes: ['readBalance'],
  scenarios: [{ name: 'a linked wallet', input: { address: WALLET } }],
  events: () => [
    { type: 'xstate.done.actor.readBalance', output: 2500 },
    { type: 'xstate.done.actor.readBalance', output: 0 },
    { type: 'xstate.error.actor.readBalance', error: { code: 'NETWORK_FAILURE' } },
    { type: 'balance.refresh' },
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.balance, s.context.error?.code ?? null]),
};
