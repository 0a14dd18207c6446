import type { DateValue } from './dates';
import type { KycStatus, Role, UserStatus } from './enums';

/** The user (and their identity verification) as the API returns it. */
export interface Kyc {
  id: string | null;
  sessionId: string | null;
  url: string | null;
  status: KycStatus;
  code: string | null;
  firstName: string | null;
  lastName: string | null;
  reason: string | null;
  reasonCode: string | null;
  updatedAt: DateValue | null;
}

/**
 * A user as anyone may see them. Identity verification (the KYC record: legal name, provider
 * session and its hosted URL, decision and reason) and preferences are private: only the user and
 * admins get `User`, everyone else this.
 */
export interface PublicUser {
  id: string;
  email: string | null;
  username: string;
  firstName: string;
  lastName: string;
  walletAddress: string | null;
  ethAddress: string | null;
  collectorScore: number;
  viewedCollectorScore: number;
  level: number;
  createdAt: DateValue;
  avatarUrl: string | null;
  identiconAvatar: string | null;
  role: Role;
  status: UserStatus;
  wallet: { walletAddress: string | null };
  /** How many collectibles the account's wallet holds. */
  nfts: number;
}

/** A user as they (or an admin) see them. */
export interface User extends PublicUser {
  kyc: Kyc;
  /** Sale emails on (only the user sees it): an email when one of their items sells. */
  saleEmails?: boolean;
  /** A new email waiting for its confirmation link to be opened (only the user sees it). */
  pendingEmail?: string | null;
}

/** Claims carried by the bearer JWT. */
export interface SessionClaims {
  userId: string;
  role: Role;
  /** Expiry as epoch milliseconds. */
  expiresAt: number;
}
