import type { KycStatus } from './enums';

/**
 * Identity verification (KYC) statuses as a person sees them, and what the KYC button does:
 * - created, resubmission_requested: the provider's session is open; with its URL, the button goes
 *   back to it (without one, a new session is started);
 * - expired, abandoned, unknown (never started): the button starts a new session, asking for the
 *   first and last name first;
 * - approved, declined, review: decided or being decided; the button does nothing.
 */
const labels: Record<KycStatus, string> = {
  created: 'Continue KYC',
  approved: 'Verified',
  resubmission_requested: 'Unverified, Retry KYC',
  declined: 'Rejected',
  review: 'Pending',
  expired: 'Restart KYC',
  abandoned: 'Canceled, Restart KYC',
  unknown: 'Begin KYC',
};

export const kycLabel = (status: KycStatus): string => labels[status] ?? labels.unknown;

export type KycAction = 'resume' | 'start' | null;

/** What pressing the KYC button does for this status (see above). */
export function kycAction(status: KycStatus, url: string | null): KycAction {
  if (status === 'created' || status === 'resubmission_requested') return url ? 'resume' : 'start';
  if (status === 'expired' || status === 'abandoned' || status === 'unknown') return 'start';
  return null;
}
