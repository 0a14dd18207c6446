import { randomBytes } from 'node:crypto';
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Executor } from '../db';
import { passwordResets } from '../db/schema';
import { tokenDigest } from './tokens';

/** Password reset tokens: 32 random bytes, base64url; only their SHA-256 is stored. Single use, 1 hour. */
export const RESET_TTL_MS = 60 * 60_000;
/** At most this many reset emails per account per TTL, so the form cannot flood a mailbox. */
export const RESETS_PER_TTL = 5;

/** A new reset token for the user, or undefined when the user already asked too often. */
export async function createResetToken(
  db: Executor,
  clock: Clock,
  userId: string,
): Promise<string | undefined> {
  const now = clock();
  const [recent] = await db
    .select({ n: count() })
    .from(passwordResets)
    .where(
      and(
        eq(passwordResets.userId, userId),
        gt(passwordResets.createdAt, new Date(now.getTime() - RESET_TTL_MS)),
      ),
    );
  if ((recent?.n ?? 0) >= RESETS_PER_TTL) return undefined;
  const token = randomBytes(32).toString('base64url');
  await db.insert(passwordResets).values({
    userId,
    tokenHash: tokenDigest(token),
    expiresAt: new Date(now.getTime() + RESET_TTL_MS),
    createdAt: now,
  });
  return token;
}

/**
 * Uses up a valid token and every other open token of its user; answers the user id, or undefined
 * for a token that is unknown, used or expired. Run it in the transaction that sets the password.
 */
export async function consumeResetToken(
  db: Executor,
  clock: Clock,
  token: string,
): Promise<string | undefined> {
  const now = clock();
  const [reset] = await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResets.tokenHash, tokenDigest(token)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    )
    .returning({ userId: passwordResets.userId });
  if (!reset) return undefined;
  await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.userId, reset.userId), isNull(passwordResets.usedAt)));
  return reset.userId;
}
