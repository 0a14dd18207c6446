import { saleEmailsOffMachine } from '../machines/saleEmailsOff';
import type { MachineModel } from './harness';

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
    { type: 'xstate.done.actor.turnOff', output: { userId: USER_ID } },
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
};
