import { assign, fromPromise, setup } from 'xstate';
import { ErrorCode, errorMessage, toErrorBody } from '#domain/errors';
import type { User } from '#domain/user';
import { fieldErrors } from '#domain/validation';
import {
  type AuthContext,
  type AuthEntry,
  type AuthEvent,
  type AuthInput,
  type AuthMeta,
  type FormEvent,
  formOutput,
  type RegistrationRequest,
  type WalletConnectResult,
  walletComplete,
} from './authForms';

/**
 * The auth flow's named parts: the calls it makes (the runtime provides them, src/flows/account.ts),
 * its actions and its guards. The statechart that uses them is machines/auth.ts.
 */
export const authSetup = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
    /** busy: a call is under way; the step's buttons show progress. */
    tags: {} as 'busy',
    meta: {} as AuthMeta,
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
    /** A new wallet account needs the wallet address and cid (else BLOCTO_EMAIL) and the server's proof. */
    walletComplete: (_, output: WalletConnectResult) => walletComplete(output),
    walletSharedEmail: (_, output: WalletConnectResult) =>
      output.kind === 'newUser' && walletComplete(output) && !!output.email,
  },
});
