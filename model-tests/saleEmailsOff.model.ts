import { expect } from 'vitest';
import { connectSaleEmailsOff, saleEmailsOffMachine } from '../machines/saleEmailsOff';
import { expectWorking, inputsOf } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof saleEmailsOffMachine>;
const view = (o: O) => connectSaleEmailsOff(o.snapshot, () => {});

export const OFF_TOKEN = '0b7f5c1e-7a0f-4c4f-9a77-3c1d2b9e8f10.c2lnbmF0dXJlLW9mLXRoZS1saW5rLTAxMjM0NTY3ODk';
export const USER_ID = '0b7f5c1e-7a0f-4c4f-9a77-3c1d2b9e8f10';

export const saleEmailsOffModel: MachineModel<typeof saleEmailsOffMachine> = {
  machine: saleEmailsOffMachine,
  fakes: ['turnOff'],
  scenarios: [
    { name: 'a link with a token', input: { token: OFF_TOKEN } },
    { name: 'a link without a token', input: { token: null } },
  ],
  events: () => [
    { type: 'saleEmailsOff.retry' },
    { type: 'xstate.done.actor.turnOff', output: { userId: USER_ID, saleEmails: false } },
    {
      type: 'xstate.error.actor.turnOff',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
    },
    {
      type: 'xstate.error.actor.turnOff',
      error: { status: 400, body: { code: 'UNSUBSCRIBE_LINK_INVALID', field: 'token', message: 'invalid' } },
    },
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.error?.code ?? null]),
  expect: {
    // The link's signed token is sent once; only a lost connection may send it again.
    turningOff: (o) => {
      expectWorking(o, 'turnOff', { token: OFF_TOKEN });
      expect(view(o)).toMatchObject({ panel: 'working', busy: true });
      if (o.event.type === 'saleEmailsOff.retry')
        expect(o.before.context.error?.code).toBe('NETWORK_FAILURE');
    },
    off: (o) => {
      expect(o.event.type).toBe('xstate.done.actor.turnOff');
      expect(view(o)).toMatchObject({ panel: 'off', title: 'Sale emails are off' });
    },
    failed: (o) => {
      const v = view(o);
      expect(v).toMatchObject({ panel: 'failed', title: 'We could not turn off sale emails' });
      expect(v.text).toBeTruthy();
      expect(v.canRetry).toBe(o.snapshot.context.error?.code === 'NETWORK_FAILURE');
      if (o.snapshot.context.token === null) expect(inputsOf(o, 'turnOff')).toEqual([]);
    },
  },
};
