import { expect } from 'vitest';
import { connectEmailConfirmation, emailConfirmationMachine } from '../machines/emailConfirmation';
import { expectOutput, expectWorking, inputsOf } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof emailConfirmationMachine>;
const view = (o: O) => connectEmailConfirmation(o.snapshot, () => {});

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
  expect: {
    // The link's token is sent once; only a lost connection may send it again (it is single-use).
    confirming: (o) => {
      expectWorking(o, 'confirmEmail', { token: CONFIRM_TOKEN });
      expect(view(o)).toMatchObject({ panel: 'confirming', title: 'Confirming your email…' });
      if (o.event.type === 'confirmation.retry') expect(o.before.context.error?.code).toBe('NETWORK_FAILURE');
    },
    confirmed: (o) => {
      expect(o.event.type).toBe('xstate.done.actor.confirmEmail');
      expect(view(o).text).toBe(`${NEW_EMAIL} is now the email of your account. Use it to sign in.`);
      expectOutput(o, { email: NEW_EMAIL });
    },
    failed: (o) => {
      const v = view(o);
      expect(v).toMatchObject({ panel: 'failed', title: 'We could not confirm your email' });
      expect(v.text).toBeTruthy();
      expect(v.canRetry).toBe(o.snapshot.context.error?.code === 'NETWORK_FAILURE');
      if (o.snapshot.context.token === null) expect(inputsOf(o, 'confirmEmail')).toEqual([]);
    },
  },
};
