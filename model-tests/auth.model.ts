import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { authMachine } from '../machines/auth';
import { connectAuth } from '../machines/authView';
import { after, entered, expectNotCalled, expectWorking } from './expect';
import { fakeToken, makeUser } from './fixtures';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof authMachine>;
const view = (o: O) => connectAuth(o.snapshot, () => {});
/** The latest event of this type. */
const last = (o: O, type: string) => o.history.filter((e) => e.type === type).at(-1);
/**
 * A form panel: the panel named, nothing running; a refused submit stays with the fields' errors,
 * a refusal of the server with its message.
 */
function form(o: O, panel: string, submit: string) {
  const v = view(o);
  expect(v).toMatchObject({ panel, busy: false, finished: false });
  if (o.event.type === submit) expect(Object.keys(v.fieldErrors).length).toBeGreaterThan(0);
  if (o.event.type === 'auth.back') expect(v.swipe === 'back' || v.swipe === null).toBe(true);
}
/** A busy step of `panel` running `service` with `input`, entered by `by`. */
function busy(o: O, panel: string, service: string, input: unknown, by: string) {
  if (entered(o, o.snapshot.value as string)) expect(o.event.type).toBe(by);
  expect(view(o)).toMatchObject({ panel, busy: true });
  expectWorking(o, service, input);
}

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
  expect: {
    // The email (or a wallet, where one is available); a wallet that failed says why.
    connect: (o) => {
      form(o, 'connect', 'auth.connect.submit');
      expect(!view(o).getConnectWalletButtonProps().disabled).toBe(!!o.snapshot.context.walletAvailable);
      if (after(o, 'error', 'connectWallet') || after(o, 'error', 'checkUserExistence'))
        expect(view(o).error).toBeTruthy();
      if (o.event.type === 'xstate.init') expect(o.snapshot.context.entry).toBe('connect');
    },
    connectingWallet: (o) => busy(o, 'connect', 'connectWallet', undefined, 'auth.wallet.connect'),
    // A wallet that shares no email asks for one.
    walletEmail: (o) => {
      form(o, 'walletEmail', 'auth.walletEmail.submit');
      expect(o.snapshot.context.walletAddress).toBe(WALLET);
      if (after(o, 'done', 'connectWallet')) expect((o.event.output as { email: unknown }).email).toBeNull();
      if (after(o, 'done', 'checkUserExistence')) expect(view(o).error).toBeTruthy();
    },
    checkingWalletEmail: (o) =>
      busy(o, 'walletEmail', 'checkUserExistence', { email: 'grace@example.com' }, 'auth.walletEmail.submit'),
    checking: (o) =>
      busy(o, 'connect', 'checkUserExistence', { email: 'ada@example.com' }, 'auth.connect.submit'),
    // A new email: choose a password.
    signup: (o) => {
      form(o, 'signup', 'auth.signup.submit');
      if (after(o, 'done', 'checkUserExistence')) expect(o.event.output).toEqual({ exists: false });
      expect(o.snapshot.context.walletAddress).toBeNull();
    },
    name: (o) => {
      form(o, 'name', 'auth.name.submit');
      if (o.event.type === 'auth.signup.submit') expect(o.snapshot.context.password).toBe('correct-horse');
      if (after(o, 'error', 'register')) expect(view(o).fieldErrors.email ?? view(o).error).toBeTruthy();
    },
    // The account is registered with the password chosen (by email) or the wallet's proof.
    registering: (o) => {
      const viaWallet = o.snapshot.context.walletAddress !== null;
      busy(
        o,
        'name',
        'register',
        {
          email: o.snapshot.context.email,
          password: viaWallet ? null : 'correct-horse',
          firstName: 'Ada',
          lastName: 'Lovelace',
          walletAddress: viaWallet ? WALLET : null,
          cid: viaWallet ? 'cid-1' : null,
          walletProof: viaWallet ? 'proof' : null,
        },
        'auth.name.submit',
      );
    },
    welcome: (o) => {
      form(o, 'welcome', 'auth.profile.submit');
      expect(view(o).user).toEqual(user);
      expect(view(o).getSkipProfileButtonProps().disabled).toBe(false);
      expect(o.snapshot.context.password).toBeNull();
    },
    savingProfile: (o) =>
      busy(
        o,
        'welcome',
        'saveProfile',
        { username: 'ada_l', firstName: 'Ada', lastName: 'Lovelace' },
        'auth.profile.submit',
      ),
    // A known email: its password.
    login: (o) => {
      form(o, 'login', 'auth.login.submit');
      if (after(o, 'done', 'checkUserExistence')) expect(o.event.output).toEqual({ exists: true });
      if (after(o, 'error', 'login')) expect(view(o).error).toBeTruthy();
      expect(view(o).getForgotButtonProps().disabled).toBe(false);
    },
    loggingIn: (o) =>
      busy(o, 'login', 'login', { email: 'ada@example.com', password: 'correct-horse' }, 'auth.login.submit'),
    forgot: (o) => {
      form(o, 'forgot', 'auth.forgot.submit');
      if (o.event.type === 'xstate.init') expect(view(o).email).toBe('ada@example.com');
    },
    requestingReset: (o) =>
      busy(o, 'forgot', 'requestPasswordReset', { email: 'ada@example.com' }, 'auth.forgot.submit'),
    forgotSent: (o) => {
      expect(view(o).panel).toBe('forgotSent');
      expect(o.event.type).toBe('xstate.done.actor.requestPasswordReset');
    },
    // The reset link: a new password for the link's token; a link without one is invalid.
    reset: (o) => {
      form(o, 'reset', 'auth.reset.submit');
      expect(o.snapshot.context.resetToken).toBe('reset-token');
      if (after(o, 'error', 'resetPassword')) expect(view(o).error).toBeTruthy();
    },
    resetting: (o) =>
      busy(
        o,
        'reset',
        'resetPassword',
        { token: 'reset-token', password: 'new-password-1' },
        'auth.reset.submit',
      ),
    resetDone: (o) => {
      expect(view(o).panel).toBe('resetDone');
      expect(o.event.type).toBe('xstate.done.actor.resetPassword');
    },
    resetInvalid: (o) => {
      expect(view(o).panel).toBe('resetInvalid');
      expect(o.snapshot.context.resetToken).toBeNull();
      expectNotCalled(o, 'resetPassword');
    },
    // Signed in: by the wallet, the password, or a new account's welcome (saved or skipped).
    finished: (o) => {
      expect(view(o).finished).toBe(true);
      const how = o.event.type;
      expect([
        'xstate.done.actor.connectWallet',
        'xstate.done.actor.login',
        'xstate.done.actor.saveProfile',
        'auth.profile.skip',
      ]).toContain(how);
      if (how === 'xstate.done.actor.connectWallet')
        expect(o.event.output).toMatchObject({ kind: 'loggedIn' });
      if (how === 'auth.profile.skip') expect(last(o, 'xstate.done.actor.register')).toBeTruthy();
    },
  },
};
