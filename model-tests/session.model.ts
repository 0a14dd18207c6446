import { expect } from 'vitest';
import { connectSession, sessionMachine } from '../machines/session';
import { after, entered, expectWorking, inputsOf } from './expect';
import { fakeToken, makeUser } from './fixtures';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof sessionMachine>;
const view = (o: O) => connectSession(o.snapshot, () => {});
/** The token the session holds now: the last one it was given, read or renewed. */
function currentToken(o: O) {
  let held: string | null = null;
  for (const e of o.history) {
    if (e.type === 'xstate.init') held = (o.snapshot.context as { token: string | null }).token;
    if ((e.type === 'session.login' || e.type === 'session.refreshed') && e.token !== 'not-a-jwt')
      held = e.token as string;
    if (e.type === 'xstate.done.actor.refreshSession') held = (e.output as { token: string }).token;
  }
  return held;
}

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
  expect: {
    // Signed out: nobody's token or profile is held; an ended session remembers where it was.
    loggedOut: (o) => {
      const v = view(o);
      expect(v.loggedIn).toBe(false);
      expect(v.user).toBeNull();
      expect(o.snapshot.context).toMatchObject({ token: null, userId: null });
      if (o.event.type === 'session.unauthorized')
        expect(o.snapshot.context.loginRedirect).toBe(o.event.path);
      if (o.event.type === 'xstate.init') expect(o.calls).toEqual([]);
      if (after(o, 'done', 'fetchProfile')) {
        const output = o.event.output as { status: string; user?: { email: string | null } };
        expect(output.status !== 'ok' || output.user?.email === null).toBe(true);
      }
    },
    // A stored token that expired is renewed with the refresh cookie before anything else.
    resuming: (o) => {
      if (entered(o, 'resuming')) expect(o.event.type).toBe('xstate.init');
      expectWorking(o, 'refreshSession');
      expect(view(o).loggedIn).toBe(false);
    },
    loggedIn: (o) => {
      expect(view(o).loggedIn).toBe(true);
      expect(o.snapshot.context.userId).toBe('u1');
      expect(o.snapshot.context.token).toBe(currentToken(o));
      expect(view(o).signedOutReason).toBeNull();
      // A failed renewal ends the session.
      expect(after(o, 'error', 'refreshSession'), 'signed in after a failed renewal').toBe(false);
    },
    'loggedIn.profile.loadingProfile': (o) => {
      expect(inputsOf(o, 'fetchProfile').at(-1)).toEqual({ userId: 'u1' });
      expect(view(o).profileProblem).toBeNull();
    },
    // The banner while the profile cannot be read; Retry reads it again.
    'loggedIn.profile.profileFailed': (o) => {
      expect(view(o).profileProblem?.canRetry).toBe(true);
      if (after(o, 'error', 'fetchProfile'))
        expect(o.snapshot.context.profileAttempts).toBe(o.before.context.profileAttempts + 1);
    },
    'loggedIn.profile.ready': (o) => {
      const updated = o.history.filter((e) => e.type === 'session.user.updated').at(-1);
      expect(view(o).user).toEqual(updated ? updated.user : user);
      expect(view(o).profileProblem).toBeNull();
      expect(o.snapshot.context.profileAttempts).toBe(0);
    },
    'loggedIn.renewal.waiting': (o) => {
      if (o.event.type === 'session.refreshed') expect(o.snapshot.context.token).toBe(o.event.token);
    },
    // A minute before the token expires it is renewed.
    'loggedIn.renewal.renewing': (o) => {
      if (!entered(o, 'loggedIn.renewal.renewing')) return;
      expect(o.event.type).toBe('xstate.after.renewal.session.loggedIn.renewal.waiting');
      expectWorking(o, 'refreshSession');
    },
  },
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
