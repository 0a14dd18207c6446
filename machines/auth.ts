import { assign } from 'xstate';
import { ErrorCode } from '#domain/errors';
import type { AuthEvent, FormEvent } from './authForms';
import { clearErrors, formOutput, goneBack } from './authForms';
import { authSetup } from './authSetup';

export type {
  AuthContext,
  AuthEntry,
  AuthEvent,
  AuthInput,
  AuthPanel,
  RegistrationRequest,
  WalletConnectResult,
} from './authForms';

/**
 * Sign-in and sign-up. A new account goes connect → signup (password) → name → welcome (profile);
 * an existing one connect → login; a wallet signs in, or starts a new account with the email it
 * shares (else the user gives one). Forgot password mails a reset link; the link's token sets a new
 * password. Each step checks its form with the shared schemas before any call is made. Every state
 * names the panel it shows in its meta (the view model, machines/authView.ts, reads it).
 */
export const authMachine = authSetup.createMachine({
  id: 'auth',
  context: ({ input }) => ({
    entry: input.entry ?? 'connect',
    via: 'email',
    walletAvailable: input.walletAvailable ?? false,
    email: input.email ?? '',
    walletAddress: null,
    cid: null,
    walletProof: null,
    password: null,
    firstName: '',
    lastName: '',
    resetToken: input.resetToken ?? null,
    user: null,
    errors: {},
    error: null,
    movedBack: false,
  }),
  initial: 'entering',
  states: {
    entering: {
      meta: { panel: 'connect' },
      always: [
        { guard: { type: 'entryIs', params: 'reset' }, target: 'reset' },
        { guard: { type: 'entryIs', params: 'forgot' }, target: 'forgot' },
        { target: 'connect' },
      ],
    },
    connect: {
      meta: { panel: 'connect' },
      on: {
        'auth.connect.submit': [
          {
            guard: 'formValid',
            target: 'checking',
            actions: assign(({ event }) => ({
              ...clearErrors,
              via: 'email' as const,
              email: (formOutput(event).output as { email: string }).email,
              walletAddress: null,
              cid: null,
              walletProof: null,
            })),
          },
          { actions: 'showFieldErrors' },
        ],
        'auth.wallet.connect': {
          guard: 'walletAvailable',
          target: 'connectingWallet',
          actions: assign(clearErrors),
        },
      },
    },
    connectingWallet: {
      meta: { panel: 'connect' },
      tags: ['busy'],
      invoke: {
        id: 'connectWallet',
        src: 'connectWallet',
        onDone: [
          {
            guard: { type: 'walletLoggedIn', params: ({ event }) => event.output },
            target: 'finished',
            actions: {
              type: 'announceLogin',
              params: ({ event }) => ({ authToken: (event.output as { authToken: string }).authToken }),
            },
          },
          {
            guard: { type: 'walletSharedEmail', params: ({ event }) => event.output },
            target: 'name',
            actions: 'rememberWallet',
          },
          {
            guard: { type: 'walletComplete', params: ({ event }) => event.output },
            target: 'walletEmail',
            actions: 'rememberWallet',
          },
          { target: 'connect', actions: { type: 'showError', params: { code: ErrorCode.BLOCTO_EMAIL } } },
        ],
        onError: {
          target: 'connect',
          // The wallet's own reason (canceled, no account data, a refused proof), else BLOCTO_AUTHENTICATION.
          actions: 'showWalletFailure',
        },
      },
    },
    /** A wallet that shares no email: the user gives one for the new account. */
    walletEmail: {
      meta: { panel: 'walletEmail' },
      on: {
        'auth.walletEmail.submit': [
          {
            guard: 'formValid',
            target: 'checkingWalletEmail',
            actions: assign(({ event }) => ({
              ...clearErrors,
              email: (formOutput(event).output as { email: string }).email,
            })),
          },
          { actions: 'showFieldErrors' },
        ],
        'auth.back': {
          target: 'connect',
          actions: assign({ ...goneBack, walletAddress: null, cid: null, walletProof: null }),
        },
      },
    },
    checkingWalletEmail: {
      meta: { panel: 'walletEmail' },
      tags: ['busy'],
      invoke: {
        id: 'checkUserExistence',
        src: 'checkUserExistence',
        input: ({ context }) => ({ email: context.email }),
        onDone: [
          {
            // That email has an account: sign in with it, then link the wallet in Settings → Wallet.
            guard: { type: 'accountExists', params: ({ event }) => event.output },
            target: 'walletEmail',
            actions: { type: 'showError', params: { code: ErrorCode.EMAIL_EXISTS } },
          },
          { target: 'name' },
        ],
        onError: { target: 'walletEmail', actions: 'showFailure' },
      },
    },
    checking: {
      meta: { panel: 'connect' },
      tags: ['busy'],
      invoke: {
        id: 'checkUserExistence',
        src: 'checkUserExistence',
        input: ({ context }) => ({ email: context.email }),
        onDone: [
          { guard: { type: 'accountExists', params: ({ event }) => event.output }, target: 'login' },
          { target: 'signup' },
        ],
        onError: { target: 'connect', actions: 'showFailure' },
      },
    },
    signup: {
      meta: { panel: 'signup' },
      on: {
        'auth.signup.submit': [
          {
            guard: 'formValid',
            target: 'name',
            actions: assign(({ event }) => ({ ...clearErrors, password: event.password })),
          },
          { actions: 'showFieldErrors' },
        ],
        'auth.back': { target: 'connect', actions: assign({ ...goneBack, password: null }) },
      },
    },
    name: {
      meta: { panel: 'name' },
      on: {
        'auth.name.submit': [
          {
            guard: 'formValid',
            target: 'registering',
            actions: assign(({ event }) => {
              const o = formOutput(event).output as { firstName: string; lastName: string };
              return { ...clearErrors, firstName: o.firstName, lastName: o.lastName };
            }),
          },
          { actions: 'showFieldErrors' },
        ],
        'auth.back': [
          { guard: 'viaWallet', target: 'connect', actions: assign(goneBack) },
          { target: 'signup', actions: assign(goneBack) },
        ],
      },
    },
    registering: {
      meta: { panel: 'name' },
      tags: ['busy'],
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) => ({
          email: context.email,
          password: context.password,
          firstName: context.firstName,
          lastName: context.lastName,
          walletAddress: context.walletAddress,
          cid: context.cid,
          walletProof: context.walletProof,
        }),
        onDone: {
          target: 'welcome',
          actions: [
            assign({ user: ({ event }) => event.output.user, password: null }),
            { type: 'announceLogin', params: ({ event }) => ({ authToken: event.output.authToken }) },
          ],
        },
        onError: { target: 'name', actions: 'showFailure' },
      },
    },
    welcome: {
      meta: { panel: 'welcome' },
      on: {
        'auth.profile.submit': [
          { guard: 'formValid', target: 'savingProfile', actions: assign(clearErrors) },
          { actions: 'showFieldErrors' },
        ],
        'auth.profile.skip': 'finished',
      },
    },
    savingProfile: {
      meta: { panel: 'welcome' },
      tags: ['busy'],
      invoke: {
        id: 'saveProfile',
        src: 'saveProfile',
        input: ({ event }) => {
          const o = formOutput(event as FormEvent).output as {
            username: string;
            firstName: string;
            lastName: string;
          };
          return { username: o.username, firstName: o.firstName, lastName: o.lastName };
        },
        onDone: {
          target: 'finished',
          actions: [
            assign({ user: ({ event }) => event.output.user }),
            { type: 'announceUser', params: ({ event }) => ({ user: event.output.user }) },
          ],
        },
        onError: { target: 'welcome', actions: 'showFailure' },
      },
    },
    login: {
      meta: { panel: 'login' },
      on: {
        'auth.login.submit': [
          { guard: 'formValid', target: 'loggingIn', actions: assign(clearErrors) },
          { actions: 'showFieldErrors' },
        ],
        'auth.forgot': { target: 'forgot', actions: assign(clearErrors) },
        'auth.back': { target: 'connect', actions: assign(goneBack) },
      },
    },
    loggingIn: {
      meta: { panel: 'login' },
      tags: ['busy'],
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ context, event }) => ({
          email: context.email,
          password: (event as Extract<AuthEvent, { type: 'auth.login.submit' }>).password,
        }),
        onDone: {
          target: 'finished',
          actions: { type: 'announceLogin', params: ({ event }) => ({ authToken: event.output.authToken }) },
        },
        onError: { target: 'login', actions: 'showFailure' },
      },
    },
    forgot: {
      meta: { panel: 'forgot' },
      on: {
        'auth.forgot.submit': [
          {
            guard: 'formValid',
            target: 'requestingReset',
            actions: assign(({ event }) => ({
              ...clearErrors,
              email: (formOutput(event).output as { email: string }).email,
            })),
          },
          { actions: 'showFieldErrors' },
        ],
        'auth.back': { target: 'connect', actions: assign(goneBack) },
      },
    },
    requestingReset: {
      meta: { panel: 'forgot' },
      tags: ['busy'],
      invoke: {
        id: 'requestPasswordReset',
        src: 'requestPasswordReset',
        input: ({ context }) => ({ email: context.email }),
        onDone: 'forgotSent',
        onError: { target: 'forgot', actions: 'showFailure' },
      },
    },
    forgotSent: {
      meta: { panel: 'forgotSent' },
      on: { 'auth.back': { target: 'connect', actions: assign(goneBack) } },
    },
    reset: {
      meta: { panel: 'reset' },
      always: { guard: ({ context }) => !context.resetToken, target: 'resetInvalid' },
      on: {
        'auth.reset.submit': [
          { guard: 'formValid', target: 'resetting', actions: assign(clearErrors) },
          { actions: 'showFieldErrors' },
        ],
      },
    },
    resetting: {
      meta: { panel: 'reset' },
      tags: ['busy'],
      invoke: {
        id: 'resetPassword',
        src: 'resetPassword',
        input: ({ context, event }) => ({
          token: context.resetToken!,
          password: (event as Extract<AuthEvent, { type: 'auth.reset.submit' }>).password,
        }),
        onDone: 'resetDone',
        onError: { target: 'reset', actions: 'showFailure' },
      },
    },
    resetDone: {
      meta: { panel: 'resetDone' },
      on: { 'auth.back': { target: 'connect', actions: assign(goneBack) } },
    },
    resetInvalid: {
      meta: { panel: 'resetInvalid' },
      on: { 'auth.forgot': 'forgot' },
    },
    finished: { type: 'final', meta: { panel: 'finished' } },
  },
});
