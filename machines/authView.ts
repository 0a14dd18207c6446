import type { SnapshotFrom } from 'xstate';
import { errorMessage } from '#domain/errors';
import type { User } from '#domain/user';
import type { authMachine } from './auth';
import type { AuthEvent, AuthInput, AuthMeta, AuthPanel } from './authForms';
import { buttonProps, type FieldsFormProps, fieldsFormProps } from './props';

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

/** Each form panel's submit: its event and the named fields it carries (the machine checks them). */
const panelForms: Partial<Record<AuthPanel, { type: AuthEvent['type']; fields: readonly string[] }>> = {
  connect: { type: 'auth.connect.submit', fields: ['email'] },
  walletEmail: { type: 'auth.walletEmail.submit', fields: ['email'] },
  signup: { type: 'auth.signup.submit', fields: ['password', 'confirm'] },
  name: { type: 'auth.name.submit', fields: ['firstName', 'lastName'] },
  welcome: { type: 'auth.profile.submit', fields: ['username', 'firstName', 'lastName'] },
  login: { type: 'auth.login.submit', fields: ['password'] },
  forgot: { type: 'auth.forgot.submit', fields: ['email'] },
  reset: { type: 'auth.reset.submit', fields: ['password', 'confirm'] },
};

/**
 * What the auth screen shows and what it can do: the panel and its address, the values to show,
 * the field and form errors as text, busy (a call is under way) and what the user can do now.
 */
export function connectAuth(snapshot: AuthSnapshot, send: Send) {
  const { context } = snapshot;
  const panel = panelOf(snapshot);
  /** A button that sends `event`, enabled when the machine takes it. */
  const button = (
    event: Extract<
      AuthEvent,
      { type: 'auth.back' | 'auth.forgot' | 'auth.wallet.connect' | 'auth.profile.skip' }
    >,
  ) => buttonProps({ onClick: () => send(event), disabled: !snapshot.can(event) });
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
    /** A browser wallet can be connected here (the button shows); its getter says when it is enabled. */
    walletOffered: context.walletAvailable,
    /** The panel's form (connect, wallet email, sign-up, name, profile, login, forgot, reset). */
    getFormProps: (): FieldsFormProps => {
      const form = panelForms[panel];
      return fieldsFormProps(form?.fields ?? [], (values) => {
        if (form) send({ type: form.type, ...values } as AuthEvent);
      });
    },
    /** The form's submit button: busy while its call runs. */
    getSubmitButtonProps: () =>
      buttonProps({ type: 'submit', disabled: false, busy: snapshot.hasTag('busy') }),
    /** Back (also "Back to sign in" and "Sign in" once a reset is sent or done). */
    getBackButtonProps: () => button({ type: 'auth.back' }),
    /** "Forgot password?", and "Request a new link" for a reset link without its token. */
    getForgotButtonProps: () => button({ type: 'auth.forgot' }),
    getConnectWalletButtonProps: () => button({ type: 'auth.wallet.connect' }),
    getSkipProfileButtonProps: () => button({ type: 'auth.profile.skip' }),
  };
}

export type AuthView = ReturnType<typeof connectAuth>;
