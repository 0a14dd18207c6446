import { sessionMachine } from '../machines/session';
import { fakeToken, makeUser } from './fixtures';
import type { MachineModel } from './harness';

export const token = fakeToken({ userId: 'u1' });
const renewed = fakeToken({ userId: 'u1', exp: Math.floor(Date.now() / 1000) + 1800 });
export const user = makeUser();

export const sessionModel: MachineModel<typeof sessionMachine> = {
  machine: sessionMachine,
  fakes: ['fetchProfile', 'refreshSession'],
  scenarios: [
    { name: 'fresh visit', input: {} },
    { name: 'stored token', input: { token } },
    { name: 'stored expired token', input: { token: fakeToken({ userId: 'u1', exp: 1 }) } },
  ],
  // While a profile retry (seconds) is pending, the renewal (minutes) cannot fire first: the
  // simulated clock fires the earliest timer, so that step is not offered there.
  events: (s) =>
    sessionEvents().filter((e) => !(s.hasTag('profileFailed') && e.type.startsWith('xstate.after.renewal'))),
  // Keep the graph small: what matters is where we are, who is logged in and where to go back to.
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.userId, s.context.loginRedirect, s.context.walletLoggedIn]),
};

function sessionEvents() {
  return [
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
    { type: 'xstate.after.profileRetry.session.loggedIn.profile.profileFailed' },
    { type: 'xstate.after.renewal.session.loggedIn.renewal.waiting' },
    { type: 'xstate.done.actor.refreshSession', output: { token: renewed } },
    { type: 'xstate.error.actor.refreshSession', error: new Error('UNAUTHORIZED') },
  ];
}
