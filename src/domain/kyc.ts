import type { KycStatus } from './enums';

/** KYC status labels and button labels of SPEC §4. */
const labels: Record<KycStatus, { status: string; action: string | null }> = {
  created: { status: 'Pending', action: 'Continue KYC' },
  approved: { status: 'Verified', action: null },
  resubmission_requested: { status: 'Unverified', action: 'Retry KYC' },
  declined: { status: 'Rejected', action: null },
  review: { status: 'Pending', action: null },
  expired: { status: 'Expired', action: 'Restart KYC' },
  abandoned: { status: 'Canceled', action: 'Restart KYC' },
  unknown: { status: 'Not started', action: 'Begin KYC' },
};

export const kycLabel = (status: KycStatus) => labels[status] ?? labels.unknown;
