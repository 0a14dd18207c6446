import { afterAll, describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { settingsFormMachine } from '../machines/settingsForm';
import { flushCoverage } from './coverage-store';
import { fakeToken, makeUser } from './fixtures';
import { generatePaths, type MachineModel, runPath } from './harness';

const account = { email: 'ada@example.com', username: 'ada-l', firstName: 'Ada', lastName: 'Lovelace' };
const password = { oldPassword: 'old-password', newPassword: 'new-password', confirm: 'new-password' };

const settingsModel: MachineModel<typeof settingsFormMachine> = {
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
    { type: 'xstate.done.actor.save', output: { user: makeUser(), authToken: fakeToken({ userId: 'u1' }) } },
    {
      type: 'xstate.error.actor.save',
      error: { status: 400, body: { code: 'USERNAME_EXISTS', field: 'username', message: 'taken' } },
    },
    { type: 'xstate.error.actor.save', error: { code: 'NETWORK_FAILURE' } },
  ],
  serializeState: (s: AnyMachineSnapshot) =>
    JSON.stringify([s.value, s.context.kind, Object.keys(s.context.errors), s.context.error?.code ?? null]),
};

describe('settings form machine paths', () => {
  const paths = generatePaths(settingsModel);
  it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
  for (const path of paths) it(path.description, () => runPath(settingsModel, path));
  afterAll(() => flushCoverage('machine'));
});
