import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { tokenDigest } from '../auth/tokens';
import type { Clock } from '../clock';
import type { Executor } from '../db';
import { emailChanges } from '../db/schema';

/**
 * Changing the email of an account takes the current password and a confirmation: the new address
 * receives a single-use link valid for EMAIL_CHANGE_TTL_MS (only the SHA-256 of its token is
 * stored), and the old address is told of the request. The email changes when the link is opened.
 * A newer request replaces the open ones.
 */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60_000;

export async function createEmailChange(
  tx: Executor,
  clock: Clock,
  userId: string,
  newEmail: string,
): Promise<string> {
  const now = clock();
  await tx
    .update(emailChanges)
    .set({ expiresAt: now })
    .where(
      and(eq(emailChanges.userId, userId), isNull(emailChanges.confirmedAt), gt(emailChanges.expiresAt, now)),
    );
  const token = randomBytes(32).toString('base64url');
  await tx.insert(emailChanges).values({
    userId,
    newEmail,
    tokenHash: tokenDigest(token),
    expiresAt: new Date(now.getTime() + EMAIL_CHANGE_TTL_MS),
    createdAt: now,
  });
  return token;
}

/** Uses up a valid token: its user and new address, or undefined when unknown, used or expired. */
export async function consumeEmailChange(tx: Executor, clock: Clock, token: string) {
  const now = clock();
  const [row] = await tx
    .update(emailChanges)
    .set({ confirmedAt: now })
    .where(
      and(
        eq(emailChanges.tokenHash, tokenDigest(token)),
        isNull(emailChanges.confirmedAt),
        gt(emailChanges.expiresAt, now),
      ),
    )
    .returning({ userId: emailChanges.userId, newEmail: emailChanges.newEmail });
  return row;
}
