import { and, count, eq, isNull, lt, or } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import { kycAction } from '#domain/kyc';
import type { KycSessionInput } from '#domain/schemas/kyc';
import type { Executor } from '../db';
import { kycVerifications, nfts } from '../db/schema';
import { apiError, type UserRow } from '../http';
import {
  type IdentityDecision,
  type IdentityProvider,
  IdentityProviderRefusedError,
  IdentityProviderUnavailableError,
} from '../identity/veriff';
import { findKyc } from './queries';

/**
 * Identity verification (KYC). Selling needs an approved verification; buying does not. Only a
 * person who owns a collectible may start one (before that there is nothing to sell).
 *
 * A person has one verification record: the provider's current session, its URL and its last
 * decision. Starting again (after expired, abandoned or never) opens a new session and forgets the
 * old one, so the old session's late webhooks change nothing.
 */

/** 503 while identity verification is turned off (VERIFF=off). */
export const identityOff = () =>
  apiError(503, 'unavailable', undefined, 'Identity verification is not available.');

/** How many collectibles the account's wallet holds. */
export async function ownedNftCount(db: Executor, walletAddress: string | null): Promise<number> {
  if (!walletAddress) return 0;
  const [row] = await db.select({ n: count() }).from(nfts).where(eq(nfts.owner, walletAddress));
  return Number(row?.n ?? 0);
}

/**
 * Opens a verification session with the provider and records it; the person is sent to its URL.
 * A session that is still open (created or resubmission requested, with a URL) is answered as is,
 * so a repeated request does not open a second one.
 */
export async function openKycSession(
  deps: { db: Executor; provider: IdentityProvider | null; clock: () => Date; callbackUrl: string },
  user: UserRow,
  name: KycSessionInput,
): Promise<{ url: string }> {
  if ((await ownedNftCount(deps.db, user.walletAddress)) === 0) throw apiError(403, ErrorCode.KYC_NO_NFTS);
  const current = await findKyc(deps.db, user.id);
  const action = kycAction(current?.status ?? 'unknown', current?.url ?? null);
  if (action === null) throw apiError(409, ErrorCode.KYC_CLOSED);
  if (action === 'resume') return { url: current!.url! };
  if (!deps.provider)
    throw apiError(503, 'unavailable', undefined, 'Identity verification is not available.');
  let session: { id: string; url: string };
  try {
    session = await deps.provider.createSession({
      firstName: name.firstName,
      lastName: name.lastName,
      vendorData: user.id,
      callback: deps.callbackUrl,
    });
  } catch (err) {
    if (err instanceof IdentityProviderRefusedError) throw apiError(502, ErrorCode.CREATE_KYC);
    if (err instanceof IdentityProviderUnavailableError) throw apiError(502, ErrorCode.VERIFF_UNREACHABLE);
    throw err;
  }
  const values = {
    sessionId: session.id,
    url: session.url,
    status: 'created' as const,
    code: null,
    firstName: name.firstName,
    lastName: name.lastName,
    reason: null,
    reasonCode: null,
    decisionTime: null,
    updatedAt: deps.clock(),
  };
  await deps.db
    .insert(kycVerifications)
    .values({ userId: user.id, ...values })
    .onConflictDoUpdate({ target: kycVerifications.userId, set: values });
  return { url: session.url };
}

/**
 * Records a provider decision on the session it names. Nothing changes when the session is not the
 * person's current one, or when a decision at least as new is already recorded (webhooks arrive
 * late, twice, or out of order). Returns the account whose status changed, or null.
 */
export async function applyKycDecision(
  db: Executor,
  decision: IdentityDecision,
  now: Date,
): Promise<{ userId: string; status: IdentityDecision['status'] } | null> {
  const [row] = await db
    .update(kycVerifications)
    .set({
      status: decision.status,
      code: decision.code,
      reason: decision.reason,
      reasonCode: decision.reasonCode,
      decisionTime: decision.decisionTime,
      updatedAt: now,
    })
    .where(
      and(
        eq(kycVerifications.sessionId, decision.sessionId),
        or(isNull(kycVerifications.decisionTime), lt(kycVerifications.decisionTime, decision.decisionTime)),
      ),
    )
    .returning({ userId: kycVerifications.userId });
  return row ? { userId: row.userId, status: decision.status } : null;
}
