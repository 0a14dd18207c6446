import type { Role } from './enums';

/** The user (and their identity verification) as the API returns it: schemas in domain/responses/users.ts. */
export type { Kyc, PublicUser, User } from './responses/users';

/** Claims carried by the bearer JWT. */
export interface SessionClaims {
  userId: string;
  role: Role;
  /** Expiry as epoch milliseconds. */
  expiresAt: number;
}
