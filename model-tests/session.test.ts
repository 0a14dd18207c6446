import { afterAll, describe, expect, it } from 'vitest';
import { sessionMachine } from '../machines/session';
import { flushCoverage } from './coverage-store';
import { fakeToken, makeUser } from './fixtures';
import { generatePaths, type MachineModel, runPath } from './harness';

const token = fakeToken({ userId: 'u1' });
const renewed = fakeToken({ userId: 'u1', exp: Math.floor(Date.now() / 1000) + 1800 });
const user = makeUser();

const sessionModel: MachineModel<typeof sessionMachine> = {
  machine: sessionMachine,
  fakes: ['fetchProfile', 'refreshSession'],
  scenarios: [
    { name: 'fresh visit', input: {} },
    { name: 'stored token', input: { token } },
    { name: 'stored expired token', input: { token: fakeToken({ userId: 'u1', exp: 1 }) } },
  ],
  events: () => [
    { type: 'session.login', token },
    { type: 'session.login', token: 'not-a-jwt' },
    { type: 'session.refreshed', token: renewed },
    { type: 'session.refreshed', token: 'not-a-jwt' },
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
    { type: 'xstate.after.renewal.session.loggedIn.renewal.waiting' },
    { type: 'xstate.done.actor.refreshSession', output: { token: renewed } },
    { type: 'xstate.error.actor.refreshSession', error: new Error('UNAUTHORIZED') },
  ],
  // Keep the graph small: what matters is where we are, who is logged in and where to go back to.
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.userId, s.context.loginRedirect, s.context.walletLoggedIn]),
};

describe('session machine paths', () => {
  for (const model of [sessionModel]) {
    const paths = generatePaths(model);
    it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
    for (const path of paths) it(path.description, () => runPath(model, path));
  }
  afterAll(() => flushCoverage('machine'));
});
