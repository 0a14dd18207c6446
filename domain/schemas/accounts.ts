import * as v from 'valibot';
import { REGISTRATION_ROLE } from '../enums';
import { PASSWORD_MIN } from '../errors';
import { fieldObject, lengthBetween, lengthKey } from '../validation';

/**
 * The rules of the account forms (sign-up, login, password reset, profile, settings) and of the
 * accounts API, one schema per field or body, each stating its rule. Messages are error keys.
 */

const required = (code: string) => v.pipe(v.string(code), v.trim(), v.nonEmpty(code));

/** Email: required (EMAIL_MISSING); must look like an email; 3 to 100 characters with an @. */
export const Email = v.pipe(
  required('EMAIL_MISSING'),
  v.toLowerCase(),
  v.email('INVALID_VALUE.email'),
  ...lengthBetween('email', 3, 100),
);
/** Forgot-password email: at most 40 characters. */
export const ForgotEmail = v.pipe(Email, v.maxLength(40, lengthKey('email', { max: 40 })));

/** Password: required (PASSWORD_MISSING); at least 8 characters (INVALID_VALUE.password). */
export const Password = v.pipe(
  v.string('PASSWORD_MISSING'),
  v.nonEmpty('PASSWORD_MISSING'),
  v.minLength(PASSWORD_MIN, 'INVALID_VALUE.password'),
  v.maxLength(200, lengthKey('password', { max: 200 })),
);

/** Sign-up username: at least 3 letters, hyphens or underscores (INVALID_VALUE.username). */
export const SignupUsername = v.pipe(
  required('USERNAME_MISSING'),
  v.regex(/^[\p{L}_-]{3,50}$/u, 'INVALID_VALUE.username'),
);
/** Settings and vanity username: 2 to 50 letters, numbers, dashes, underscores (INVALID_USERNAME). */
export const SettingsUsername = v.pipe(
  required('USERNAME_MISSING'),
  v.regex(/^[\p{L}\p{N}_-]{2,50}$/u, 'INVALID_USERNAME'),
);
/** Profile (avatar step) username: up to 50 word characters or hyphen. */
export const ProfileUsername = v.pipe(
  required('USERNAME_MISSING'),
  v.regex(/^[\w-]{1,50}$/, 'INVALID_USERNAME'),
);

/** First name: required; at least 3 letters, hyphens or underscores (INVALID_VALUE.firstName). */
export const FirstName = v.pipe(
  required('FIRSTNAME_MISSING'),
  v.regex(/^[\p{L}_-]{3,}$/u, 'INVALID_VALUE.firstName'),
  v.maxLength(100, lengthKey('firstName', { max: 100 })),
);
/** First name in settings: 3 to 100 characters. */
export const SettingsFirstName = v.pipe(required('FIRSTNAME_MISSING'), ...lengthBetween('firstName', 3, 100));
/** Profile (avatar step) first name: at most 50. */
export const ProfileFirstName = v.pipe(FirstName, v.maxLength(50, lengthKey('firstName', { max: 50 })));
/** Last name: optional, up to 100 (INVALID_VALUE.lastName). */
export const LastName = v.optional(
  v.pipe(v.string('INVALID_VALUE.lastName'), v.trim(), v.maxLength(100, lengthKey('lastName', { max: 100 }))),
  '',
);
export const ProfileLastName = v.optional(
  v.pipe(v.string('INVALID_VALUE.lastName'), v.trim(), v.maxLength(50, lengthKey('lastName', { max: 50 }))),
  '',
);

/** A Flow account address: 0x and 16 hex digits. */
export const FlowAddress = v.pipe(
  v.string('INVALID_VALUE.walletAddress'),
  v.regex(/^0x[0-9a-f]{16}$/, 'INVALID_VALUE.walletAddress'),
);

export const RegistrationInput = v.pipe(
  fieldObject({
    email: Email,
    username: SignupUsername,
    password: Password,
    firstName: FirstName,
    lastName: LastName,
    walletAddress: v.optional(FlowAddress),
    cid: v.optional(v.pipe(v.string(), v.maxLength(200))),
    rewardCode: v.optional(v.pipe(v.string(), v.maxLength(64))),
    /** From verify-account-proof: proves control of walletAddress. */
    walletProof: v.optional(v.pipe(v.string(), v.maxLength(2000))),
    role: v.optional(v.picklist([REGISTRATION_ROLE], 'INVALID_VALUE.role'), REGISTRATION_ROLE),
  }),
  // A wallet-linked registration carries both the wallet address and the wallet's cid, or
  // neither; one without the other is BLOCTO_EMAIL.
  v.check((r) => !r.walletAddress === !r.cid, 'BLOCTO_EMAIL'),
);
export type RegistrationInput = v.InferOutput<typeof RegistrationInput>;

export const LoginInput = fieldObject({
  email: Email,
  password: v.pipe(
    v.string('PASSWORD_MISSING'),
    v.nonEmpty('PASSWORD_MISSING'),
    v.maxLength(200, 'UNAUTHORIZED'),
  ),
});
export type LoginInput = v.InferOutput<typeof LoginInput>;

export const PasswordResetRequestInput = fieldObject({ email: ForgotEmail });
export const PasswordResetInput = fieldObject({ password: Password });

/** The token of the confirmation link sent to a new email address. */
export const EmailConfirmationInput = fieldObject({
  token: v.pipe(
    v.string('EMAIL_CHANGE_INVALID.token'),
    v.regex(/^[\w-]{20,100}$/, 'EMAIL_CHANGE_INVALID.token'),
  ),
});

/** The token of the link in a sale (or favorite) email that turns those emails off (`[favorites.]<user id>.<signature>`). */
export const SaleEmailsOffInput = fieldObject({
  token: v.pipe(
    v.string('UNSUBSCRIBE_LINK_INVALID.token'),
    v.regex(/^(favorites\.)?[\w-]{36}\.[\w-]{43}$/, 'UNSUBSCRIBE_LINK_INVALID.token'),
  ),
});

/**
 * An avatar is one of the user's own uploads (`/media/uploads/<user id>/<file>.png|jpg|jpeg|gif`);
 * the server also checks the file is theirs and passes the avatar rules. Outside URLs, `data:` and
 * `javascript:` are refused.
 */
export const AvatarUrl = v.pipe(
  v.string('INVALID_VALUE.avatarUrl'),
  v.regex(
    /^\/media\/uploads\/[0-9a-f-]{36}\/[A-Za-z0-9][A-Za-z0-9_-]{0,80}\.(png|jpe?g|gif)$/i,
    'INVALID_VALUE.avatarUrl',
  ),
);

export const ProfileUpdateInput = v.pipe(
  fieldObject({
    email: v.optional(Email),
    username: v.optional(SettingsUsername),
    firstName: v.optional(SettingsFirstName),
    lastName: v.optional(LastName),
    avatarUrl: v.optional(v.nullable(AvatarUrl)),
    /** Email me when one of my items sells. */
    saleEmails: v.optional(v.boolean('INVALID_VALUE.saleEmails')),
    /** Email me when an item I saved drops in price or goes on sale. */
    favoriteEmails: v.optional(v.boolean('INVALID_VALUE.favoriteEmails')),
    walletAddress: v.optional(FlowAddress),
    /** From verify-account-proof: proves control of walletAddress. */
    walletProof: v.optional(v.pipe(v.string(), v.maxLength(2000))),
    /** The current password: needed to change the password or the email. */
    oldPassword: v.optional(
      v.pipe(v.string('PASSWORD_MISSING'), v.maxLength(200, 'INVALID_VALUE.oldPassword')),
    ),
    newPassword: v.optional(Password),
  }),
  v.forward(
    v.check((u) => u.newPassword === undefined || !!u.oldPassword, 'PASSWORD_MISSING.oldPassword'),
    ['oldPassword'],
  ),
  v.forward(
    v.check(
      (u) => u.newPassword === undefined || u.newPassword !== u.oldPassword,
      'PASSWORD_SAME.newPassword',
    ),
    ['newPassword'],
  ),
);
export type ProfileUpdateInput = v.InferOutput<typeof ProfileUpdateInput>;

export const UserExistenceQuery = v.pipe(
  fieldObject({ email: v.optional(Email), walletAddress: v.optional(FlowAddress) }),
  v.check((q) => !!q.email || !!q.walletAddress, 'EMAIL_MISSING.email'),
);

/* ---- Client-only form schemas (same rules, plus confirmation) ---- */

export const SignupForm = v.pipe(
  fieldObject({ password: Password, confirm: v.string() }),
  v.forward(
    v.check((f) => f.password === f.confirm, 'PASSWORD_MISMATCH.confirm'),
    ['confirm'],
  ),
);
export const ResetForm = SignupForm;
export const NameForm = fieldObject({ firstName: FirstName, lastName: LastName });
export const ProfileForm = fieldObject({
  username: ProfileUsername,
  firstName: ProfileFirstName,
  lastName: ProfileLastName,
});
export const LoginForm = fieldObject({
  password: v.pipe(v.string('PASSWORD_MISSING'), v.nonEmpty('PASSWORD_MISSING')),
});
export const ForgotForm = fieldObject({ email: ForgotEmail });
export const ConnectForm = fieldObject({ email: Email });

/** Settings → Account: validates email, username, first and last name before saving. */
export const AccountForm = fieldObject({
  email: Email,
  username: SettingsUsername,
  firstName: SettingsFirstName,
  lastName: LastName,
  /** The current password: the server asks for it when the email changes. */
  oldPassword: v.optional(v.pipe(v.string(), v.maxLength(200, 'INVALID_VALUE.oldPassword'))),
});

/** Settings → Security: change password; the new one must differ from the old (PASSWORD_SAME). */
export const PasswordForm = v.pipe(
  fieldObject({
    oldPassword: v.pipe(v.string('PASSWORD_MISSING'), v.nonEmpty('PASSWORD_MISSING')),
    newPassword: Password,
    confirm: v.string('PASSWORD_MISMATCH'),
  }),
  v.forward(
    v.check((f) => f.newPassword === f.confirm, 'PASSWORD_MISMATCH'),
    ['confirm'],
  ),
  v.forward(
    v.check((f) => f.newPassword !== f.oldPassword, 'PASSWORD_SAME'),
    ['newPassword'],
  ),
);
