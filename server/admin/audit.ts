import type { Executor } from '../db';
import { adminActions } from '../db/schema';

export interface AdminActionRecord {
  adminId: string;
  /** `subject.verb`: kyc.reopen, user.block, user.unblock, storefront.suspend, email.resend, … */
  action: string;
  subjectType: 'user' | 'kyc' | 'storefront' | 'storefront-report' | 'payout-request' | 'email';
  subjectId: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  at: Date;
}

/**
 * Records an admin's action in the audit log. Call it in the transaction that makes the change: the
 * change and its record commit together or not at all.
 */
export async function recordAdminAction(db: Executor, record: AdminActionRecord): Promise<void> {
  const { at, ...values } = record;
  await db.insert(adminActions).values({ ...values, createdAt: at });
}
