import type { AnyMachineSnapshot } from 'xstate';
import { authMachine } from '../machines/auth';
import { fakeToken, makeUser } from './fixtures';
import type { MachineModel } from './harness';

const authToken = fakeToken({ userId: 'u1' });
const WALLET = '0x01cf0e2f2f715450';
const user = makeUser();
const apiError = (code: string, field?: string) => ({ status: 400, body: { code, field, message: code } });

export const authModel: MachineModel<typeof authMachine> = {
  machine: authMachine,
  fakes: [
    'checkUserExistence',
    'connectWallet',
    'register',
    'login',
    'saveProfile',
    'requestPasswordReset',
    'resetPassword',
  ],
  scenarios: [
    { name: 'connect with a wallet available', input: { entry: 'connect', walletAvailable: true } },
    { name: 'connect by email only', input: { entry: 'connect' } },
    { name: 'forgot password link', input: { entry: 'forgot', email: 'ada@example.com' } },
    { name: 'reset link with token', input: { entry: 'reset', resetToken: 'reset-token' } },
    { name: 'reset link without token', input: { entry: 'reset' } },
  ],
  events: () => [
    { type: 'auth.connect.submit', email: 'ada@example.com' },
    { type: 'auth.connect.submit', email: 'not-an-email' },
    { type: 'auth.wallet.connect' },
    { type: 'xstate.done.actor.connectWallet', output: { kind: 'loggedIn', authToken } },
    {
      type: 'xstate.done.actor.connectWallet',
      output: {
        kind: 'newUser',
        email: 'ada@example.com',
        walletAddress: WALLET,
        cid: 'cid-1',
        walletProof: 'proof',
      },
    },
    {
      type: 'xstate.done.actor.connectWallet',
      output: { kind: 'newUser', email: null, walletAddress: WALLET, cid: 'cid-1', walletProof: 'proof' },
    },
    {
      type: 'xstate.done.actor.connectWallet',
      output: {
        kind: 'newUser',
        email: 'ada@example.com',
        walletAddress: null,
        cid: null,
        walletProof: null,
      },
    },
    { type: 'auth.walletEmail.submit', email: 'grace@example.com' },
    { type: 'auth.walletEmail.submit', email: 'grace' },
    { type: 'xstate.error.actor.connectWallet', error: new Error('the wallet crashed') },
    {
      type: 'xstate.error.actor.connectWallet',
      error: {
        status: 400,
        body: { code: 'WALLET_CANCELED', message: 'Connecting the wallet failed or was canceled.' },
      },
    },
    { type: 'xstate.done.actor.checkUserExistence', output: { exists: true } },
    { type: 'xstate.done.actor.checkUserExistence', output: { exists: false } },
    { type: 'xstate.error.actor.checkUserExistence', error: { code: 'NETWORK_FAILURE' } },
    { type: 'auth.signup.submit', password: 'correct-horse', confirm: 'correct-horse' },
    { type: 'auth.signup.submit', password: 'correct-horse', confirm: 'other-horse' },
    { type: 'auth.name.submit', firstName: 'Ada', lastName: 'Lovelace' },
    { type: 'auth.name.submit', firstName: 'Al', lastName: '' },
    { type: 'xstate.done.actor.register', output: { authToken, user } },
    { type: 'xstate.error.actor.register', error: apiError('EMAIL_EXISTS', 'email') },
    { type: 'auth.profile.submit', username: 'ada_l', firstName: 'Ada', lastName: 'Lovelace' },
    { type: 'auth.profile.submit', username: 'ada l!', firstName: 'Ada', lastName: '' },
    { type: 'auth.profile.skip' },
    { type: 'xstate.done.actor.saveProfile', output: { user } },
    { type: 'xstate.error.actor.saveProfile', error: apiError('USERNAME_EXISTS', 'username') },
    { type: 'auth.login.submit', password: 'correct-horse' },
    { type: 'auth.login.submit', password: '' },
    { type: 'xstate.done.actor.login', output: { authToken } },
    {
      type: 'xstate.error.actor.login',
      error: { status: 401, body: { code: 'UNAUTHORIZED', message: 'x' } },
    },
    { type: 'auth.forgot' },
    { type: 'auth.forgot.submit', email: 'ada@example.com' },
    { type: 'auth.forgot.submit', email: '' },
    { type: 'xstate.done.actor.requestPasswordReset', output: undefined },
    { type: 'xstate.error.actor.requestPasswordReset', error: { code: 'NETWORK_FAILURE' } },
    { type: 'auth.reset.submit', password: 'new-password-1', confirm: 'new-password-1' },
    { type: 'auth.reset.submit', password: 'short', confirm: 'short' },
    { type: 'xstate.done.actor.resetPassword', output: undefined },
    { type: 'xstate.error.actor.resetPassword', error: apiError('RESET_TOKEN_INVALID') },
    { type: 'auth.back' },
  ],
  serializeState: (s: AnyMachineSnapshot) =>
    JSON.stringify([
      s.value,
      s.context.via,
      s.context.email,
      s.context.walletAddress,
      Object.entries(s.context.errors as object).map(([k, e]) => `${k}:${e.code}`),
      s.context.error?.code ?? null,
      // Back slides the screen the other way.
      s.context.movedBack,
    ]),
};
