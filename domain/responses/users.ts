import * as v from 'valibot';
import { kycStatuses, roles, userStatuses } from '../enums';
import { AuthTokenAnswer, Count, DateTime } from './common';

/** Users, sessions and identity verification as the product API answers them. */

/** A user's identity verification record (only the user and admins see it). */
export const Kyc = v.object({
  id: v.nullable(v.string()),
  sessionId: v.nullable(v.string()),
  url: v.nullable(v.string()),
  status: v.picklist(kycStatuses),
  code: v.nullable(v.string()),
  firstName: v.nullable(v.string()),
  lastName: v.nullable(v.string()),
  reason: v.nullable(v.string()),
  reasonCode: v.nullable(v.string()),
  updatedAt: v.nullable(DateTime),
});
export type Kyc = v.InferOutput<typeof Kyc>;

/**
 * A user as anyone may see them. Identity verification (the KYC record: legal name, provider
 * session and its hosted URL, decision and reason) and preferences are private: only the user and
 * admins get `User`, everyone else this (its email null).
 */
export const PublicUser = v.object({
  id: v.string(),
  email: v.nullable(v.string()),
  username: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  walletAddress: v.nullable(v.string()),
  ethAddress: v.nullable(v.string()),
  collectorScore: v.number(),
  viewedCollectorScore: v.number(),
  level: v.number(),
  createdAt: DateTime,
  avatarUrl: v.nullable(v.string()),
  identiconAvatar: v.nullable(v.string()),
  role: v.picklist(roles),
  status: v.picklist(userStatuses),
  wallet: v.object({ walletAddress: v.nullable(v.string()) }),
  /** How many collectibles the account's wallet holds. */
  nfts: Count,
});
export type PublicUser = v.InferOutput<typeof PublicUser>;

/** A user as they (or an admin) see them. */
export const User = v.object({
  ...PublicUser.entries,
  kyc: Kyc,
  /** Sale emails on (only the user sees it): an email when one of their items sells. */
  saleEmails: v.optional(v.boolean()),
  favoriteEmails: v.optional(v.boolean()),
  /** A new email waiting for its confirmation link to be opened (only the user sees it). */
  pendingEmail: v.optional(v.nullable(v.string())),
});
export type User = v.InferOutput<typeof User>;

/** GET users/{id}: the whole user for themselves and admins, the public part for anyone else. */
export const UserAnswer = v.union([User, PublicUser]);

/** PATCH users/me: the user, and a new session token when the password changed (the others ended). */
export const ProfileUpdateAnswer = v.object({ ...User.entries, authToken: v.optional(v.string()) });

/** A new account: its session token and user. */
export const RegistrationAnswer = v.object({ authToken: v.string(), user: User });

export const UserExistence = v.object({ exists: v.boolean() });
export const EmailConfirmed = v.object({ email: v.string() });
export const SaleEmailsOff = v.union([
  v.object({ userId: v.string(), saleEmails: v.literal(false) }),
  v.object({ userId: v.string(), favoriteEmails: v.literal(false) }),
]);

/** The account-proof challenge a wallet signs: its app identifier and a nonce (32 bytes, hex). */
export const AccountProofChallenge = v.object({ appIdentifier: v.string(), nonce: v.string() });
/**
 * A verified wallet: the session token of the account holding it, else no token and a proof of the
 * wallet (valid 15 minutes) to register or connect it with.
 */
export const AccountProofAnswer = v.object({
  authToken: v.nullable(v.string()),
  walletProof: v.optional(v.string()),
});

/** The answer of POST veriff-kyc: where the person verifies. */
export const KycSession = v.object({ url: v.string() });
export type KycSession = v.InferOutput<typeof KycSession>;

export { AuthTokenAnswer };
