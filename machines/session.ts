import { assign, fromPromise, setup } from 'xstate';
import type { Role } from '../src/domain/enums';
import { readSessionToken } from '../src/domain/token';
import type { User } from '../src/domain/user';

/**
 * The session of SPEC §3/§4: token, role, expiry, userId and loginRedirect.
 * Logs out on a 401 (saving the current path), on a profile without email, on a profile 404,
 * and when the token expires. "Fully logged in" means wallet and auth both logged in.
 */
export interface SessionContext {
  token: string | null;
  role: Role;
  expiresAt: number | null;
  userId: string | null;
  user: User | null;
  loginRedirect: string | null;
  walletLoggedIn: boolean;
  profileError: boolean;
}

export interface SessionInput {
  token?: string | null;
  loginRedirect?: string | null;
  /** Milliseconds since epoch; the token is checked against it on restore. */
  now?: number;
}

export type SessionEvent =
  | { type: 'session.login'; token: string }
  | { type: 'session.logout' }
  | { type: 'session.unauthorized'; path: string }
  | { type: 'session.redirect.save'; path: string }
  | { type: 'session.redirect.clear' }
  | { type: 'session.user.updated'; user: User; token?: string }
  | { type: 'session.wallet.changed'; loggedIn: boolean }
  | { type: 'session.retry' };

export type ProfileResult = { status: 'ok'; user: User } | { status: 'notFound' };

const MAX_TIMER_MS = 2 ** 31 - 1;

const loggedOutContext = {
  token: null,
  role: 'anonymous' as Role,
  expiresAt: null,
  userId: null,
  user: null,
  profileError: false,
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
  },
  actions: {
    clearSession: assign(loggedOutContext),
  },
  guards: {
    tokenUsable: ({ context }) => !!context.token && !!context.expiresAt && context.expiresAt > Date.now(),
    tokenExpired: ({ context }) => !context.expiresAt || context.expiresAt <= Date.now(),
    tokenReadable: ({ event }) => event.type === 'session.login' && readSessionToken(event.token) !== null,
    profileComplete: (_, output: ProfileResult) => output.status === 'ok' && !!output.user.email,
  },
  delays: {
    /** Until the token's expiry, at most the longest timer a browser keeps (2^31 - 1 ms). */
    tokenExpiry: ({ context }) => Math.min(MAX_TIMER_MS, Math.max(0, (context.expiresAt ?? 0) - Date.now())),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => {
    const claims = input.token ? readSessionToken(input.token) : null;
    return {
      ...loggedOutContext,
      token: claims ? input.token! : null,
      role: claims?.role ?? 'anonymous',
      expiresAt: claims?.expiresAt ?? null,
      userId: claims?.userId ?? null,
      loginRedirect: input.loginRedirect ?? null,
      walletLoggedIn: false,
    };
  },
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
        { target: 'loggedOut', actions: 'clearSession' },
      ],
    },
    loggedOut: {
      on: {
        'session.login': {
          guard: 'tokenReadable',
          target: 'loggedIn',
          actions: assign(({ event }) => {
            const claims = readSessionToken(event.token)!;
            return {
              token: event.token,
              role: claims.role,
              expiresAt: claims.expiresAt,
              userId: claims.userId,
            };
          }),
        },
      },
    },
    loggedIn: {
      type: 'parallel',
      on: {
        'session.logout': { target: 'loggedOut', actions: 'clearSession' },
        'session.unauthorized': {
          target: 'loggedOut',
          actions: ['clearSession', assign({ loginRedirect: ({ event }) => event.path })],
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
                    }),
                  },
                  // A profile 404 or a profile without email logs the user out (SPEC §4).
                  { target: '#session.loggedOut', actions: 'clearSession' },
                ],
                onError: { target: 'profileFailed', actions: assign({ profileError: true }) },
              },
            },
            profileFailed: {
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
        /** Logs out when the token expires; a timer cannot wait longer than ~24.8 days, so it re-arms. */
        expiry: {
          initial: 'counting',
          states: {
            counting: {
              after: {
                tokenExpiry: [
                  { guard: 'tokenExpired', target: '#session.loggedOut', actions: 'clearSession' },
                  { target: 'counting', reenter: true },
                ],
              },
            },
          },
        },
      },
    },
  },
});

/** Fully logged in: wallet and auth both logged in (SPEC §4). */
export const isFullyLoggedIn = (c: SessionContext) => !!c.token && !!c.user && c.walletLoggedIn;
