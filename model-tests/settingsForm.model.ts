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
/** The account values a tab kept of an interrupted save (never a password). */
export const restoredDraft = {
  email: 'ada@example.com',
  username: 'ada-l',
  firstName: 'Augusta',
  lastName: 'King',
};
export const password = { oldPassword: 'old-password', newPassword: 'new-password', confirm: 'new-password' };

export const settingsModel: MachineModel<typeof settingsFormMachine> = {
  machine: settingsFormMachine,
  fakes: ['save'],
  scenarios: [
    { name: 'account', input: { kind: 'account' } },
    { name: 'password', input: { kind: 'password' } },
    // A save the session's end interrupted: the tab kept its values (and a stray password it drops).
    {
      name: 'account with a kept draft',
      input: { kind: 'account', draft: { ...restoredDraft, oldPassword: 'secret', extra: 1 } },
    },
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
    {
      type: 'xstate.error.actor.save',
      error: {
        status: 401,
        body: { code: 'UNAUTHORIZED', message: 'Your session has expired. Please log in again.' },
      },
    },
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
