import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import type { Role } from '#domain/enums';
import type { ProfileResult } from '#domain/ports/accounts';
import { readSessionToken } from '#domain/token';
import type { User } from '#domain/user';

export type { ProfileResult } from '#domain/ports/accounts';

/**
 * The session: token, role, expiry, userId and loginRedirect.
 * The session token is short-lived; a minute before it expires the session renews it with the
 * refresh cookie the server set at login (`refreshSession`), and a stored token that expired while
 * the app was closed is renewed the same way on start. Logging out ends the session on the server
 * too (`endSession`). Logs out on a 401 (saving the current path), on a failed renewal, on a
 * profile without email and on a profile 404. "Fully logged in" means wallet and auth both logged in.
 */
export interface SessionContext {
  token: string | null;
  role: Role;
  expiresAt: number | null;
  userId: string | null;
  user: User | null;
  loginRedirect: string | null;
  /**
   * Why the session ended without the user logging out (the server's 401 message, e.g. "Your
   * session has expired. Please log in again."): the sign-in page shows it until the next login.
   */
  signedOutReason: string | null;
  walletLoggedIn: boolean;
  profileError: boolean;
  /** Failed profile fetches in a row. */
  profileAttempts: number;
}

export interface SessionInput {
  token?: string | null;
  loginRedirect?: string | null;
}

export type SessionEvent =
  | { type: 'session.login'; token: string }
  /** The API renewed the token after a 401 (see src/services/api.ts). */
  | { type: 'session.refreshed'; token: string }
  | { type: 'session.logout' }
  /** The API answered 401 to a call: `path` is where the user was, `reason` the server's message. */
  | { type: 'session.unauthorized'; path: string; reason?: string }
  | { type: 'session.redirect.save'; path: string }
  | { type: 'session.redirect.clear' }
  | { type: 'session.user.updated'; user: User; token?: string }
  | { type: 'session.wallet.changed'; loggedIn: boolean }
  | { type: 'session.retry' };

export interface RefreshResult {
  token: string;
}

const MAX_TIMER_MS = 2 ** 31 - 1;
/** Renew the token this long before it expires. */
export const RENEW_BEFORE_EXPIRY_MS = 60_000;
/**
 * A failed profile fetch is retried on its own after 1, 2, 4, 8 and 16 s; after that only the
 * shell's Retry (session.retry) tries again.
 */
export const PROFILE_RETRY_FIRST_MS = 1000;
export const PROFILE_AUTO_RETRIES = 5;

/** The context values a session token carries. */
function fromToken(token: string) {
  const claims = readSessionToken(token);
  return claims
    ? { token, role: claims.role, expiresAt: claims.expiresAt, userId: claims.userId }
    : { token: null, role: 'anonymous' as Role, expiresAt: null, userId: null };
}

const loggedOutContext = {
  token: null,
  role: 'anonymous' as Role,
  expiresAt: null,
  userId: null,
  user: null,
  profileError: false,
  profileAttempts: 0,
  signedOutReason: null,
  /** Logging out of Vitrine logs the wallet out too. */
  walletLoggedIn: false,
};

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    fetchProfile: fromPromise<ProfileResult, { userId: string }>(async () => {
      throw new Error('fetchProfile not provided');
    }),
    /** A new session token from the refresh cookie; fails when the session is over. */
    refreshSession: fromPromise<RefreshResult>(async () => {
      throw new Error('refreshSession not provided');
    }),
  },
  actions: {
    clearSession: assign(loggedOutContext),
    /** Ends the session on the server (its token and refresh cookie stop working). */
    endSession: (_, _params: { token: string | null }) => {},
    takeToken: assign((_, params: { token: string }) => fromToken(params.token)),
  },
  guards: {
    tokenUsable: ({ context }) => !!context.token && !!context.expiresAt && context.expiresAt > Date.now(),
    hasToken: ({ context }) => !!context.token,
    tokenReadable: (_, params: { token: string }) => readSessionToken(params.token) !== null,
    profileComplete: (_, output: ProfileResult) => output.status === 'ok' && !!output.user.email,
    profileRetryLeft: ({ context }) => context.profileAttempts <= PROFILE_AUTO_RETRIES,
  },
  delays: {
    /** A minute before the token expires, at most the longest timer a browser keeps (2^31 - 1 ms). */
    renewal: ({ context }) =>
      Math.min(MAX_TIMER_MS, Math.max(0, (context.expiresAt ?? 0) - RENEW_BEFORE_EXPIRY_MS - Date.now())),
    /** Doubles after each failed profile fetch: 1 s, 2 s, 4 s… */
    profileRetry: ({ context }) => PROFILE_RETRY_FIRST_MS * 2 ** Math.max(0, context.profileAttempts - 1),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    ...loggedOutContext,
    ...(input.token ? fromToken(input.token) : {}),
    loginRedirect: input.loginRedirect ?? null,
    walletLoggedIn: false,
  }),
  initial: 'restoring',
  on: {
    'session.redirect.save': { actions: assign({ loginRedirect: ({ event }) => event.path }) },
    'session.redirect.clear': { actions: assign({ loginRedirect: null }) },
    'session.wallet.changed': { actions: assign({ walletLoggedIn: ({ event }) => event.loggedIn }) },
  },
  states: {
    restoring: {
      always: [
        { guard: 'tokenUsable', target: 'loggedIn' },
        // A token that expired while the app was closed: the refresh cookie may still renew it.
        { guard: 'hasToken', target: 'resuming' },
        { target: 'loggedOut', actions: 'clearSession' },
      ],
    },
    resuming: {
      invoke: {
        id: 'refreshSession',
        src: 'refreshSession',
        onDone: {
          target: 'loggedIn',
          actions: { type: 'takeToken', params: ({ event }) => ({ token: event.output.token }) },
        },
        onError: { target: 'loggedOut', actions: 'clearSession' },
      },
    },
    loggedOut: {
      on: {
        'session.login': {
          guard: { type: 'tokenReadable', params: ({ event }) => ({ token: event.token }) },
          target: 'loggedIn',
          actions: [
            { type: 'takeToken', params: ({ event }) => ({ token: event.token }) },
            assign({ signedOutReason: null }),
          ],
        },
      },
    },
    loggedIn: {
      type: 'parallel',
      on: {
        'session.logout': {
          target: 'loggedOut',
          actions: [
            { type: 'endSession', params: ({ context }) => ({ token: context.token }) },
            'clearSession',
          ],
        },
        'session.unauthorized': {
          target: 'loggedOut',
          actions: [
            'clearSession',
            assign({
              loginRedirect: ({ event }) => event.path,
              signedOutReason: ({ event }) => event.reason ?? null,
            }),
          ],
        },
      },
      states: {
        profile: {
          initial: 'loadingProfile',
          states: {
            loadingProfile: {
              invoke: {
                id: 'fetchProfile',
                src: 'fetchProfile',
                input: ({ context }) => ({ userId: context.userId! }),
                onDone: [
                  {
                    guard: { type: 'profileComplete', params: ({ event }) => event.output },
                    target: 'ready',
                    actions: assign({
                      user: ({ event }) => (event.output as Extract<ProfileResult, { status: 'ok' }>).user,
                      profileError: false,
                      profileAttempts: 0,
                    }),
                  },
                  // A profile 404 or a profile without an email logs the user out.
                  { target: '#session.loggedOut', actions: 'clearSession' },
                ],
                onError: {
                  target: 'profileFailed',
                  actions: assign({
                    profileError: true,
                    profileAttempts: ({ context }) => context.profileAttempts + 1,
                  }),
                },
              },
            },
            /** The profile could not be fetched (network, server): retried with backoff, and on Retry. */
            profileFailed: {
              tags: ['profileFailed'],
              after: { profileRetry: { guard: 'profileRetryLeft', target: 'loadingProfile' } },
              on: { 'session.retry': 'loadingProfile' },
            },
            ready: {
              on: {
                'session.user.updated': {
                  actions: assign(({ event, context }) => {
                    const claims = event.token ? readSessionToken(event.token) : null;
                    return claims
                      ? {
                          user: event.user,
                          token: event.token!,
                          expiresAt: claims.expiresAt,
                          role: claims.role,
                        }
                      : { user: event.user, token: context.token };
                  }),
                },
              },
            },
          },
        },
        /**
         * Renews the token a minute before it expires (a timer cannot wait longer than ~24.8 days,
         * so a long wait re-arms); a failed renewal logs out. A token the API renewed after a 401
         * restarts the wait.
         */
        renewal: {
          initial: 'waiting',
          on: {
            'session.refreshed': {
              guard: { type: 'tokenReadable', params: ({ event }) => ({ token: event.token }) },
              target: '.waiting',
              reenter: true,
              actions: { type: 'takeToken', params: ({ event }) => ({ token: event.token }) },
            },
          },
          states: {
            waiting: {
              after: { renewal: 'renewing' },
            },
            renewing: {
              invoke: {
                id: 'refreshSession',
                src: 'refreshSession',
                onDone: {
                  target: 'waiting',
                  actions: { type: 'takeToken', params: ({ event }) => ({ token: event.output.token }) },
                },
                onError: { target: '#session.loggedOut', actions: 'clearSession' },
              },
            },
          },
        },
      },
    },
  },
});

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/** Someone is logged in (the profile may still be on its way). */
export const isLoggedIn = (s: SessionSnapshot) => s.matches('loggedIn');
/** A stored token that expired is being renewed: whether someone is logged in is not known yet. */
export const isResuming = (s: SessionSnapshot) => s.matches('resuming');

/** The profile fetch failed and will be retried on its own. */
const retryingProfile = (s: SessionSnapshot) =>
  s.hasTag('profileFailed') && s.context.profileAttempts <= PROFILE_AUTO_RETRIES;

/**
 * Whether a page waiting for the signed-in user can stop waiting: the profile is here, the visitor
 * is not logged in, or the profile fetch failed with no retry left (a page then shows without it).
 */
export const profileSettled = (s: SessionSnapshot) =>
  !!s.context.user || !isLoggedIn(s) || (s.hasTag('profileFailed') && !retryingProfile(s));

/**
 * What views show of the session and what they can do with it: whether someone is logged in, the
 * signed-in user (once the profile is here), the account problem banner with its Retry, logging out.
 */
export function connectSession(s: SessionSnapshot, send: (event: SessionEvent) => void) {
  const failed = s.hasTag('profileFailed');
  const retrying = retryingProfile(s);
  return {
    user: s.context.user,
    loggedIn: isLoggedIn(s),
    profileProblem: failed
      ? {
          text: retrying
            ? 'We couldn’t load your account. Trying again…'
            : 'We couldn’t load your account. Check your connection and try again.',
          canRetry: s.can({ type: 'session.retry' }),
        }
      : null,
    /** Why the session ended, for the sign-in page ("Your session has expired. Please log in again."). */
    signedOutReason: isLoggedIn(s) ? null : s.context.signedOutReason,
    retryProfile: () => send({ type: 'session.retry' }),
    logout: () => send({ type: 'session.logout' }),
  };
}

export type SessionView = ReturnType<typeof connectSession>;
