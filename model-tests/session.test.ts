import { afterAll, describe, expect, it } from 'vitest';
import { sessionMachine } from '../machines/session';
import { flushCoverage } from './coverage-store';
import { fakeToken, makeUser } from './fixtures';
import { generatePaths, type MachineModel, runPath } from './harness';

const token = fakeToken({ userId: 'u1' });
const user = makeUser();

const sessionModel: MachineModel<typeof sessionMachine> = {
  machine: sessionMachine,
  fakes: ['fetchProfile'],
  scenarios: [
    { name: 'fresh visit', input: {} },
    { name: 'stored token', input: { token } },
    { name: 'stored expired token', input: { token: fakeToken({ userId: 'u1', exp: 1 }) } },
  ],
  events: () => [
    { type: 'session.login', token },
    { type: 'session.login', token: 'not-a-jwt' },
    { type: 'session.logout' },
    { type: 'session.unauthorized', path: '/settings/security' },
    { type: 'session.redirect.save', path: '/profile/collection' },
    { type: 'session.redirect.clear' },
    { type: 'session.user.updated', user: { ...user, firstName: 'Augusta' } },
    { type: 'session.wallet.changed', loggedIn: true },
    { type: 'session.retry' },
    { type: 'xstate.done.actor.fetchProfile', output: { status: 'ok', user } },
    { type: 'xstate.done.actor.fetchProfile', output: { status: 'ok', user: { ...user, email: null } } },
    { type: 'xstate.done.actor.fetchProfile', output: { status: 'notFound' } },
    { type: 'xstate.error.actor.fetchProfile', error: new Error('NETWORK_FAILURE') },
    { type: 'xstate.after.tokenExpiry.session.loggedIn.expiry.counting' },
  ],
  // Keep the graph small: what matters is where we are, who is logged in and where to go back to.
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.userId,
      s.context.loginRedirect,
      s.context.walletLoggedIn,
      s.context.user?.firstName,
    ]),
};

/** The same machine in a world where the token's time is up whenever its timer fires. */
const expiredModel: MachineModel<typeof sessionMachine> = {
  ...sessionModel,
  provide: { guards: { tokenExpired: () => true } },
  scenarios: [{ name: 'token runs out', input: { token } }],
};

describe('session machine paths', () => {
  for (const model of [sessionModel, expiredModel]) {
    const paths = generatePaths(model);
    it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
    for (const path of paths) it(path.description, () => runPath(model, path));
  }
  afterAll(() => flushCoverage('machine'));
});
