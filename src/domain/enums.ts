/** Enumerations of SPEC §3. */
export const roles = [
  'admin',
  'collector',
  'cronjob',
  'partnerAccount',
  'creator',
  'anonymous',
  'unknown',
] as const;
export type Role = (typeof roles)[number];

export const userStatuses = ['active', 'blocked', 'removed', 'unknown'] as const;
export type UserStatus = (typeof userStatuses)[number];

export const kycStatuses = [
  'created',
  'approved',
  'resubmission_requested',
  'declined',
  'review',
  'expired',
  'abandoned',
  'unknown',
] as const;
export type KycStatus = (typeof kycStatuses)[number];

/** New accounts register with role creator (SPEC §6). */
export const REGISTRATION_ROLE: Role = 'creator';
