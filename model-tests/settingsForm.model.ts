import type { AnyMachineSnapshot } from 'xstate';
import { settingsFormMachine } from '../machines/settingsForm';
import { fakeToken, makeUser } from './fixtures';
import type { MachineModel } from './harness';

export const account = {
  email: 'ada@example.com',
  username: 'ada-l',
  firstName: 'Ada',
  lastName: 'Lovelace',
  oldPassword: '',
};
export const password = { oldPassword: 'old-password', newPassword: 'new-password', confirm: 'new-password' };

export const settingsModel: MachineModel<typeof settingsFormMachine> = {
  machine: settingsFormMachine,
  fakes: ['save'],
  scenarios: [
    { name: 'account', input: { kind: 'account' } },
    { name: 'password', input: { kind: 'password' } },
  ],
  events: (s) => [
    { type: 'settings.edit' },
    { type: 'settings.cancel' },
    { type: 'settings.submit', values: s.context.kind === 'account' ? account : password },
    {
      type: 'settings.submit',
      values: s.context.kind === 'account' ? { ...account, username: 'a' } : { ...password, confirm: 'nope' },
    },
    {
      type: 'settings.submit',
      values:
        s.context.kind === 'account'
          ? { ...account, firstName: '' }
          : { ...password, newPassword: 'old-password', confirm: 'old-password' },
    },
    { type: 'xstate.done.actor.save', output: { user: makeUser(), authToken: fakeToken({ userId: 'u1' }) } },
    {
      type: 'xstate.error.actor.save',
      error: {
        status: 400,
        body: { code: 'USERNAME_EXISTS', field: 'username', message: 'This username is taken.' },
      },
    },
    { type: 'xstate.error.actor.save', error: { code: 'NETWORK_FAILURE' } },
  ],
  serializeState: (s: AnyMachineSnapshot) =>
    JSON.stringify([
      s.value,
      s.context.kind,
      s.context.values,
      Object.keys(s.context.errors),
      s.context.error?.code ?? null,
    ]),
};
