import { expect } from 'vitest';
import { connectFusdBalance, fusdBalanceMachine } from '../machines/fusdBalance';
import { after, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof fusdBalanceMachine>;
const view = (o: O) => connectFusdBalance(o.snapshot, () => {});

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
  expect: {
    // The wallet's FUSD, read on opening and on Refresh.
    reading: (o) => {
      expectWorking(o, 'readBalance', { address: WALLET });
      expect(view(o).busy).toBe(true);
    },
    shown: (o) => {
      expect(after(o, 'done', 'readBalance')).toBe(true);
      const cents = o.event.output as number;
      expect(view(o)).toMatchObject({ busy: false, error: null, canRefresh: true });
      expect(view(o).value).toMatch(cents === 0 ? /^\$0(\.00)? FUSD$/ : /^\$25(\.00)? FUSD$/);
    },
    failed: (o) => {
      expect(after(o, 'error', 'readBalance')).toBe(true);
      expect(view(o).error).toBeTruthy();
      expect(view(o).canRefresh).toBe(true);
    },
  },
};
