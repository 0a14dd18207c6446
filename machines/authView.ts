import type { SnapshotFrom } from 'xstate';
import { errorMessage } from '#domain/errors';
import type { User } from '#domain/user';
import type { authMachine } from './auth';
import type { AuthEvent, AuthInput, AuthMeta, AuthPanel } from './authForms';

type AuthSnapshot = SnapshotFrom<typeof authMachine>;

/** The address of each auth panel: the URL follows the step the machine is in. */
export type AuthPath =
  | '/auth/connect'
  | '/auth/signup'
  | '/auth/name'
  | '/auth/welcome'
  | '/auth/login'
  | '/auth/forgot-password'
  | '/auth/reset-password';

/** Every panel's address; `finished` has none (the app goes where the user was headed). */
const panelPaths = {
  connect: '/auth/connect',
  walletEmail: '/auth/connect',
  signup: '/auth/signup',
  name: '/auth/name',
  welcome: '/auth/welcome',
  login: '/auth/login',
  forgot: '/auth/forgot-password',
  forgotSent: '/auth/forgot-password',
  reset: '/auth/reset-password',
  resetDone: '/auth/reset-password',
  resetInvalid: '/auth/reset-password',
  finished: null,
} as const satisfies Record<AuthPanel, AuthPath | null>;

/** The steps of a new account slide in (forward, or back after Back): connect, signup, name, welcome. */
const swipePanels: readonly AuthPanel[] = ['connect', 'walletEmail', 'signup', 'name', 'welcome'];

/** Where an auth address starts the flow: the reset link carries its token in t, forgot an email. */
export function authEntryFrom(pathname: string, search: Record<string, unknown>): AuthInput {
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
  if (pathname.startsWith('/auth/reset-password'))
    return { entry: 'reset', resetToken: str(search.t) ?? null };
  if (pathname.startsWith('/auth/forgot-password')) return { entry: 'forgot', email: str(search.email) };
  return { entry: 'connect' };
}

/** The panel the state shows, from its meta; a state without one is a bug in the chart. */
function panelOf(snapshot: AuthSnapshot): AuthPanel {
  const metas = Object.values(snapshot.getMeta()) as Array<AuthMeta | undefined>;
  const panel = metas.find((m) => m?.panel)?.panel;
  if (!panel) throw new Error(`The auth state ${JSON.stringify(snapshot.value)} names no panel`);
  return panel;
}

type Send = (event: AuthEvent) => void;

/**
 * What the auth screen shows and what it can do: the panel and its address, the values to show,
 * the field and form errors as text, busy (a call is under way) and what the user can do now.
 */
export function connectAuth(snapshot: AuthSnapshot, send: Send) {
  const { context } = snapshot;
  const panel = panelOf(snapshot);
  const fieldErrors: Record<string, string | undefined> = {};
  for (const [name, error] of Object.entries(context.errors)) fieldErrors[name] = error.message;
  return {
    panel,
    /** The address of this panel; null when the flow is over. */
    path: panelPaths[panel] as AuthPath | null,
    finished: snapshot.status === 'done',
    /** How the panel comes in: slides forward or back (new-account steps), or not at all. */
    swipe: swipePanels.includes(panel) ? (context.movedBack ? 'back' : 'forward') : null,
    email: context.email,
    walletAddress: context.walletAddress,
    name: { firstName: context.firstName, lastName: context.lastName },
    /** The new account's profile, on the welcome panel. */
    user: context.user as User | null,
    fieldErrors,
    error: context.error ? errorMessage(context.error) : null,
    busy: snapshot.hasTag('busy'),
    /** A browser wallet can be connected here (the button shows); `can.connectWallet` says when. */
    walletOffered: context.walletAvailable,
    can: {
      back: snapshot.can({ type: 'auth.back' }),
      connectWallet: snapshot.can({ type: 'auth.wallet.connect' }),
      forgot: snapshot.can({ type: 'auth.forgot' }),
      skipProfile: snapshot.can({ type: 'auth.profile.skip' }),
    },
    connect: (email: string) => send({ type: 'auth.connect.submit', email }),
    connectWallet: () => send({ type: 'auth.wallet.connect' }),
    submitWalletEmail: (email: string) => send({ type: 'auth.walletEmail.submit', email }),
    signup: (password: string, confirm: string) => send({ type: 'auth.signup.submit', password, confirm }),
    submitName: (firstName: string, lastName: string) =>
      send({ type: 'auth.name.submit', firstName, lastName }),
    saveProfile: (profile: { username: string; firstName: string; lastName: string }) =>
      send({ type: 'auth.profile.submit', ...profile }),
    skipProfile: () => send({ type: 'auth.profile.skip' }),
    login: (password: string) => send({ type: 'auth.login.submit', password }),
    forgot: () => send({ type: 'auth.forgot' }),
    requestReset: (email: string) => send({ type: 'auth.forgot.submit', email }),
    reset: (password: string, confirm: string) => send({ type: 'auth.reset.submit', password, confirm }),
    back: () => send({ type: 'auth.back' }),
  };
}

export type AuthView = ReturnType<typeof connectAuth>;
