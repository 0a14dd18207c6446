import { expect } from 'vitest';
import { collectionCheckMachine, connectCollectionCheck } from '../machines/collectionCheck';
import { after, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof collectionCheckMachine>;
const view = (o: O) => connectCollectionCheck(o.snapshot, () => {});
const address = { address: '0x01cf0e2f2f715450' };

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
  expect: {
    // The wallet's collection is checked first, and again after a setup.
    checking: (o) => {
      expectWorking(o, 'checkCollection', address);
      expect(view(o)).toMatchObject({ step: 'checking', busy: true, text: 'Checking your collection…' });
    },
    checkFailed: (o) => {
      expect(view(o)).toMatchObject({ step: 'checkFailed', canRetry: true });
      expect(view(o).error).toBeTruthy();
    },
    // "Collection required" → the account setup in the wallet.
    required: (o) => {
      expect(view(o).setup).toEqual({ enabled: true, loading: false });
      if (after(o, 'done', 'checkCollection')) expect(o.event.output).toEqual({ ready: false });
      if (after(o, 'error', 'setupCollection')) expect(view(o).error).toBeTruthy();
    },
    settingUp: (o) => {
      expect(o.event.type).toBe('collection.setup');
      expectWorking(o, 'setupCollection', address);
      expect(view(o).setup).toEqual({ enabled: false, loading: true });
    },
    ready: (o) => {
      expect(o.event).toEqual({ type: 'xstate.done.actor.checkCollection', output: { ready: true } });
      expect(o.snapshot.status).toBe('done');
    },
  },
};
