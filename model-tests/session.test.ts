import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { SESSION_EXPIRED_TEXT } from '#domain/apiError';
import {
  connectSession,
  PROFILE_AUTO_RETRIES,
  type ProfileResult,
  profileSettled,
  sessionMachine,
} from '../machines/session';
import { flushCoverage } from './coverage-store';
import { generatePaths, runPath } from './harness';
import { sessionModel, token, user } from './session.model';

describe('session machine paths', () => {
  for (const model of [sessionModel]) {
    const paths = generatePaths(model);
    it('generates paths', () => expect(paths.length).toBeGreaterThan(5));
    for (const path of paths) it(path.description, () => runPath(model, path));
  }
  afterAll(() => flushCoverage('machine'));
});

describe('a failed profile fetch', () => {
  /** A session whose profile fetch fails `failures` times, then answers; on a simulated clock. */
  function failingSession(failures: number) {
    const clock = new SimulatedClock();
    let calls = 0;
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          fetchProfile: fromPromise<ProfileResult, { userId: string }>(async () => {
            calls++;
            if (calls <= failures) throw new Error('NETWORK_FAILURE');
            return { status: 'ok', user };
          }),
        },
      }),
      { input: { token }, clock },
    ).start();
    const settle = () => new Promise((r) => setTimeout(r, 0));
    return { actor, clock, calls: () => calls, settle };
  }

  it('is retried after 1, 2, 4, 8 and 16 s; the shell offers Retry meanwhile and after', async () => {
    const { actor, clock, calls, settle } = failingSession(Infinity);
    await settle();
    expect(calls()).toBe(1);
    // A page waiting for the user keeps waiting while retries are left.
    expect(profileSettled(actor.getSnapshot())).toBe(false);
    expect(connectSession(actor.getSnapshot(), actor.send).profileProblem).toEqual({
      text: 'We couldn’t load your account. Trying again…',
      canRetry: true,
    });
    let elapsed = 0;
    for (const wait of [1000, 2000, 4000, 8000, 16000]) {
      clock.increment(wait - 1);
      await settle();
      expect(calls(), `not before ${elapsed + wait} ms`).toBe(Math.log2(wait / 1000) + 1);
      clock.increment(1);
      await settle();
      elapsed += wait;
      expect(calls(), `at ${elapsed} ms`).toBe(Math.log2(wait / 1000) + 2);
    }
    expect(calls()).toBe(PROFILE_AUTO_RETRIES + 1);
    // No more retries on its own: only Retry tries again.
    clock.increment(10 * 60_000);
    await settle();
    expect(calls()).toBe(PROFILE_AUTO_RETRIES + 1);
    expect(profileSettled(actor.getSnapshot())).toBe(true);
    expect(connectSession(actor.getSnapshot(), actor.send).profileProblem?.text).toBe(
      'We couldn’t load your account. Check your connection and try again.',
    );
    connectSession(actor.getSnapshot(), actor.send).retryProfile();
    await settle();
    expect(calls()).toBe(PROFILE_AUTO_RETRIES + 2);
    actor.stop();
  });

  it('once the fetch succeeds, the user is there and the banner goes', async () => {
    const { actor, clock, calls, settle } = failingSession(1);
    await settle();
    expect(connectSession(actor.getSnapshot(), actor.send).profileProblem).not.toBeNull();
    clock.increment(1000);
    await settle();
    expect(calls()).toBe(2);
    const view = connectSession(actor.getSnapshot(), actor.send);
    expect(view.profileProblem).toBeNull();
    expect(view.user).toEqual(user);
    expect(actor.getSnapshot().context.profileAttempts).toBe(0);
    actor.stop();
  });
});

describe('a session the server ended', () => {
  it('says why on the sign-in page until the next login, and remembers the path', () => {
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          fetchProfile: fromPromise<ProfileResult, { userId: string }>(() => new Promise(() => {})),
        },
      }),
      { input: { token } },
    ).start();
    expect(connectSession(actor.getSnapshot(), actor.send).signedOutReason).toBeNull();
    actor.send({ type: 'session.unauthorized', path: '/settings/account', reason: SESSION_EXPIRED_TEXT });
    expect(connectSession(actor.getSnapshot(), actor.send)).toMatchObject({
      loggedIn: false,
      signedOutReason: 'Your session has expired. Please log in again.',
    });
    expect(actor.getSnapshot().context.loginRedirect).toBe('/settings/account');
    actor.send({ type: 'session.login', token });
    expect(connectSession(actor.getSnapshot(), actor.send).signedOutReason).toBeNull();
    // Logging out oneself gives no reason.
    actor.send({ type: 'session.logout' });
    expect(connectSession(actor.getSnapshot(), actor.send).signedOutReason).toBeNull();
    actor.stop();
  });
});
