import { emailConfirmationMachine } from '../machines/emailConfirmation';
import type { MachineModel } from './harness';

export const CONFIRM_TOKEN = 'c0nfirmation-token-0123456789';
export const NEW_EMAIL = 'grace@example.com';

export const emailConfirmationModel: MachineModel<typeof emailConfirmationMachine> = {
  machine: emailConfirmationMachine,
  fakes: ['confirmEmail'],
  scenarios: [
    { name: 'a link with a token', input: { token: CONFIRM_TOKEN } },
    { name: 'a link without a token', input: { token: null } },
  ],
  events: () => [
    { type: 'confirmation.retry' },
    { type: 'xstate.done.actor.confirmEmail', output: { email: NEW_EMAIL } },
    {
      type: 'xstate.error.actor.confirmEmail',
      error: { status: 0, body: { code: 'NETWORK_FAILURE', message: 'Unknown connection error' } },
    },
    {
      type: 'xstate.error.actor.confirmEmail',
      error: { status: 400, body: { code: 'EMAIL_CHANGE_INVALID', field: 'token', message: 'invalid' } },
    },
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.email, s.context.error?.code ?? null]),
};
