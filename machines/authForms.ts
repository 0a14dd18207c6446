import * as v from 'valibot';
import type { ApiErrorBody } from '#domain/errors';
import type { WalletConnectResult } from '#domain/ports/accounts';
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

export type { RegistrationRequest, WalletConnectResult } from '#domain/ports/accounts';

/**
 * The auth flow's input, context and events, and the form schema each submit event is checked
 * against (the machine is in machines/auth.ts, its view model in machines/authView.ts).
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
  /** The last step change was a Back: the screen slides in from the left. */
  movedBack: boolean;
}

/**
 * What the screen shows in a state: every state names its panel in its meta, so a state that is
 * renamed or added keeps (or must declare) the screen and the address it belongs to.
 */
export type AuthPanel =
  | 'connect'
  | 'walletEmail'
  | 'signup'
  | 'name'
  | 'welcome'
  | 'login'
  | 'forgot'
  | 'forgotSent'
  | 'reset'
  | 'resetDone'
  | 'resetInvalid'
  | 'finished';
export interface AuthMeta {
  panel: AuthPanel;
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
export type FormEvent = Extract<AuthEvent, { type: keyof typeof forms }>;

/** The submit event's form checked against its schema (its values without the event type). */
export function formOutput<E extends FormEvent>(event: E) {
  const { type: _type, ...data } = event;
  return v.safeParse(forms[event.type] as v.GenericSchema, data);
}

/** A step change forward clears the last errors. */
export const clearErrors = { errors: {}, error: null, movedBack: false };
/** Back clears them too, and the screen slides back. */
export const goneBack = { errors: {}, error: null, movedBack: true };

/** A new wallet account needs the wallet address and cid (else BLOCTO_EMAIL) and the server's proof. */
export const walletComplete = (o: WalletConnectResult) =>
  o.kind === 'newUser' && !!o.walletAddress && !!o.cid && !!o.walletProof;
