import * as v from 'valibot';
import { assign, fromPromise, setup } from 'xstate';
import type { ApiErrorBody } from '#domain/errors';
import { ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import {
  ConnectForm,
  ForgotForm,
  LoginForm,
  NameForm,
  ProfileForm,
  ResetForm,
  SignupForm,
} from '#domain/schemas/accounts';
import type { User } from '#domain/user';
import { fieldErrors } from '#domain/validation';

/**
 * Sign-in and sign-up (SPEC §2 "Auth screens", §4 "Login", §5): connect → signup → name → welcome
 * for new accounts, connect → login for existing ones, plus forgot and reset password.
 * Each step validates its form with the shared schemas before any call is made.
 */

export type AuthEntry = 'connect' | 'forgot' | 'reset';
export interface AuthInput {
  entry?: AuthEntry;
  email?: string;
  /** Reset token from query t. */
  resetToken?: string | null;
  /** Whether a browser wallet can be connected (the Flow wallet service supplies it). */
  walletAvailable?: boolean;
}

export type WalletConnectResult =
  | { kind: 'loggedIn'; authToken: string }
  | {
      kind: 'newUser';
      /** Shared by wallets that know it (Blocto); others leave it to the user. */
      email: string | null;
      walletAddress: string | null;
      cid: string | null;
      /** The server's proof that this browser controls walletAddress, for registration. */
      walletProof: string | null;
    };

export interface RegistrationRequest {
  email: string;
  password: string | null;
  firstName: string;
  lastName: string;
  walletAddress: string | null;
  cid: string | null;
  walletProof: string | null;
}

export interface AuthContext {
  entry: AuthEntry;
  via: 'email' | 'wallet';
  walletAvailable: boolean;
  email: string;
  walletAddress: string | null;
  cid: string | null;
  walletProof: string | null;
  password: string | null;
  firstName: string;
  lastName: string;
  resetToken: string | null;
  user: User | null;
  errors: Record<string, ApiErrorBody>;
  error: ApiErrorBody | null;
}

type Form<T extends string, D> = { type: T } & D;
export type AuthEvent =
  | Form<'auth.connect.submit', { email: string }>
  | { type: 'auth.wallet.connect' }
  | Form<'auth.walletEmail.submit', { email: string }>
  | Form<'auth.signup.submit', { password: string; confirm: string }>
  | Form<'auth.name.submit', { firstName: string; lastName: string }>
  | Form<'auth.profile.submit', { username: string; firstName: string; lastName: string }>
  | { type: 'auth.profile.skip' }
  | Form<'auth.login.submit', { password: string }>
  | { type: 'auth.forgot' }
  | Form<'auth.forgot.submit', { email: string }>
  | Form<'auth.reset.submit', { password: string; confirm: string }>
  | { type: 'auth.back' };

const forms = {
  'auth.connect.submit': ConnectForm,
  'auth.walletEmail.submit': ConnectForm,
  'auth.signup.submit': SignupForm,
  'auth.name.submit': NameForm,
  'auth.profile.submit': ProfileForm,
  'auth.login.submit': LoginForm,
  'auth.forgot.submit': ForgotForm,
  'auth.reset.submit': ResetForm,
} as const satisfies Record<string, v.GenericSchema>;
type FormEvent = Extract<AuthEvent, { type: keyof typeof forms }>;

function formOutput<E extends FormEvent>(event: E) {
  const { type: _type, ...data } = event;
  return v.safeParse(forms[event.type] as v.GenericSchema, data);
}

const clearErrors = { errors: {}, error: null };
const walletComplete = (o: WalletConnectResult) =>
  o.kind === 'newUser' && !!o.walletAddress && !!o.cid && !!o.walletProof;

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
    /** busy: a call is under way; the step's buttons show progress. */
    tags: {} as 'busy',
  },
  actors: {
    checkUserExistence: fromPromise<{ exists: boolean }, { email: string }>(async () => {
      throw new Error('checkUserExistence not provided');
    }),
    connectWallet: fromPromise<WalletConnectResult, void>(async () => {
      throw new Error('connectWallet not provided');
    }),
    register: fromPromise<{ authToken: string; user: User }, RegistrationRequest>(async () => {
      throw new Error('register not provided');
    }),
    login: fromPromise<{ authToken: string }, { email: string; password: string }>(async () => {
      throw new Error('login not provided');
    }),
    saveProfile: fromPromise<{ user: User }, { username: string; firstName: string; lastName: string }>(
      async () => {
        throw new Error('saveProfile not provided');
      },
    ),
    requestPasswordReset: fromPromise<void, { email: string }>(async () => {
      throw new Error('requestPasswordReset not provided');
    }),
    resetPassword: fromPromise<void, { token: string; password: string }>(async () => {
      throw new Error('resetPassword not provided');
    }),
  },
  actions: {
    /** Hands the new bearer token to the session. */
    announceLogin: (_, _params: { authToken: string }) => {},
    /** Hands the saved profile to the session. */
    announceUser: (_, _params: { user: User }) => {},
    showError: assign({
      error: (_, params: { code: string }) => ({ code: params.code, message: errorMessage(params) }),
    }),
    showWalletFailure: assign({
      error: ({ event }) => {
        const body = toErrorBody((event as { error?: unknown }).error);
        return body.code === ErrorCode.NETWORK_FAILURE || body.code === ErrorCode.UNKNOWN
          ? {
              code: ErrorCode.BLOCTO_AUTHENTICATION,
              message: errorMessage({ code: ErrorCode.BLOCTO_AUTHENTICATION }),
            }
          : body;
      },
    }),
    showFailure: assign({ error: ({ event }) => toErrorBody((event as { error?: unknown }).error) }),
    rememberWallet: assign(({ event }) => {
      const o = (event as unknown as { output: Extract<WalletConnectResult, { kind: 'newUser' }> }).output;
      return {
        via: 'wallet' as const,
        email: o.email ?? '',
        walletAddress: o.walletAddress,
        cid: o.cid,
        walletProof: o.walletProof,
      };
    }),
    showFieldErrors: assign({
      errors: ({ event }) => {
        const r = formOutput(event as FormEvent);
        return r.success ? {} : fieldErrors(r.issues);
      },
      error: null,
    }),
  },
  guards: {
    formValid: ({ event }) => formOutput(event as FormEvent).success,
    viaWallet: ({ context }) => context.via === 'wallet',
    walletAvailable: ({ context }) => context.walletAvailable,
    entryIs: ({ context }, entry: AuthEntry) => context.entry === entry,
    accountExists: (_, output: { exists: boolean }) => output.exists,
    walletLoggedIn: (_, output: WalletConnectResult) => output.kind === 'loggedIn',
    /** Register name needs the wallet address and cid (else BLOCTO_EMAIL), and the server's wallet proof. */
    walletComplete: (_, output: WalletConnectResult) => walletComplete(output),
    walletSharedEmail: (_, output: WalletConnectResult) =>
      output.kind === 'newUser' && walletComplete(output) && !!output.email,
  },
}).createMachine({
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
  }),
  initial: 'entering',
  states: {
    entering: {
      always: [
        { guard: { type: 'entryIs', params: 'reset' }, target: 'reset' },
        { guard: { type: 'entryIs', params: 'forgot' }, target: 'forgot' },
        { target: 'connect' },
      ],
    },
    connect: {
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
          actions: assign({ ...clearErrors, walletAddress: null, cid: null, walletProof: null }),
        },
      },
    },
    checkingWalletEmail: {
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
      on: {
        'auth.signup.submit': [
          {
            guard: 'formValid',
            target: 'name',
            actions: assign(({ event }) => ({ ...clearErrors, password: event.password })),
          },
          { actions: 'showFieldErrors' },
        ],
        'auth.back': { target: 'connect', actions: assign({ ...clearErrors, password: null }) },
      },
    },
    name: {
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
          { guard: 'viaWallet', target: 'connect', actions: assign(clearErrors) },
          { target: 'signup', actions: assign(clearErrors) },
        ],
      },
    },
    registering: {
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
      on: {
        'auth.profile.submit': [
          { guard: 'formValid', target: 'savingProfile', actions: assign(clearErrors) },
          { actions: 'showFieldErrors' },
        ],
        'auth.profile.skip': 'finished',
      },
    },
    savingProfile: {
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
      on: {
        'auth.login.submit': [
          { guard: 'formValid', target: 'loggingIn', actions: assign(clearErrors) },
          { actions: 'showFieldErrors' },
        ],
        'auth.forgot': { target: 'forgot', actions: assign(clearErrors) },
        'auth.back': { target: 'connect', actions: assign(clearErrors) },
      },
    },
    loggingIn: {
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
        'auth.back': { target: 'connect', actions: assign(clearErrors) },
      },
    },
    requestingReset: {
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
      on: { 'auth.back': 'connect' },
    },
    reset: {
      always: { guard: ({ context }) => !context.resetToken, target: 'resetInvalid' },
      on: {
        'auth.reset.submit': [
          { guard: 'formValid', target: 'resetting', actions: assign(clearErrors) },
          { actions: 'showFieldErrors' },
        ],
      },
    },
    resetting: {
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
      on: { 'auth.back': 'connect' },
    },
    resetInvalid: {
      on: { 'auth.forgot': 'forgot' },
    },
    finished: { type: 'final' },
  },
});
