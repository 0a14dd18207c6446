import { eq, sql } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Database } from '../db';
import { loginThrottles } from '../db/schema';
import { rateLimited } from '../http';

/**
 * Login throttling.
 * - Per client address, a hard limit: at most ADDRESS_MAX_ATTEMPTS failed logins in a window of
 *   ADDRESS_WINDOW_MS; past it the address gets 429 until the window ends.
 * - Per account, a growing delay, never a lockout: the first EMAIL_FREE_FAILURES failures cost
 *   nothing, then each further failure makes the next attempt wait 1 s, 2 s, 4 s … up to
 *   EMAIL_MAX_DELAY_MS. Whoever waits that long may try again, so a stranger cannot keep the owner
 *   out; an account's failures are forgotten EMAIL_FORGET_MS after the last one.
 * Each attempt is counted before its password is checked, in one atomic upsert per key, so a burst
 * of concurrent attempts cannot overshoot a limit. A successful login gives its attempt back.
 */
export const ADDRESS_MAX_ATTEMPTS = 10;
export const ADDRESS_WINDOW_MS = 15 * 60_000;
export const EMAIL_FREE_FAILURES = 5;
export const EMAIL_MAX_DELAY_MS = 30_000;
export const EMAIL_FORGET_MS = 15 * 60_000;

export interface Attempt {
  email: string;
  address: string;
}

const addressKey = (address: string) => `address:${address}`;
const emailKey = (email: string) => `email:${email}`;

/** The wait after an account's `failures`-th failure in a row. */
export function emailDelayMs(failures: number): number {
  if (failures < EMAIL_FREE_FAILURES) return 0;
  return Math.min(EMAIL_MAX_DELAY_MS, 1000 * 2 ** (failures - EMAIL_FREE_FAILURES));
}

/**
 * Counts a login attempt against the client address and the account before the password is
 * checked; throws 429 (with Retry-After) when either must wait.
 */
export async function beginLoginAttempt(db: Database, clock: Clock, { email, address }: Attempt) {
  const now = clock();
  const windowStart = new Date(now.getTime() - ADDRESS_WINDOW_MS);
  const t = loginThrottles;
  const expired = sql`${t.windowStartedAt} <= ${windowStart}`;
  const [byAddress] = await db
    .insert(t)
    .values({
      key: addressKey(address),
      failures: 1,
      windowStartedAt: now,
      nextAllowedAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures: sql`case when ${expired} then 1 else ${t.failures} + 1 end`,
        windowStartedAt: sql`case when ${expired} then ${now} else ${t.windowStartedAt} end`,
        updatedAt: now,
      },
    })
    .returning();
  if (byAddress!.failures > ADDRESS_MAX_ATTEMPTS) {
    throw rateLimited(byAddress!.windowStartedAt.getTime() + ADDRESS_WINDOW_MS - now.getTime());
  }

  // The account's next attempt is claimed only when its wait is over; the claim also sets the wait
  // that follows should this attempt fail.
  const forgotten = sql`${t.updatedAt} <= ${new Date(now.getTime() - EMAIL_FORGET_MS)}`;
  const failures = sql`(case when ${forgotten} then 1 else ${t.failures} + 1 end)`;
  const [claimed] = await db
    .insert(t)
    .values({
      key: emailKey(email),
      failures: 1,
      windowStartedAt: now,
      nextAllowedAt: new Date(now.getTime() + emailDelayMs(1)),
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures,
        windowStartedAt: sql`case when ${forgotten} then ${now} else ${t.windowStartedAt} end`,
        nextAllowedAt: sql`${now}::timestamptz + least(${EMAIL_MAX_DELAY_MS}, case when ${failures} < ${EMAIL_FREE_FAILURES} then 0
          else 1000 * power(2, ${failures} - ${EMAIL_FREE_FAILURES}) end) * interval '1 millisecond'`,
        updatedAt: now,
      },
      setWhere: sql`${t.nextAllowedAt} <= ${now} or ${forgotten}`,
    })
    .returning();
  if (!claimed) {
    const [row] = await db
      .select()
      .from(t)
      .where(eq(t.key, emailKey(email)));
    throw rateLimited((row?.nextAllowedAt.getTime() ?? now.getTime()) - now.getTime());
  }
}

/** A successful login: the account's failures are forgotten and the address gets its attempt back. */
export async function loginSucceeded(db: Database, { email, address }: Attempt): Promise<void> {
  const t = loginThrottles;
  await db.delete(t).where(eq(t.key, emailKey(email)));
  await db
    .update(t)
    .set({ failures: sql`greatest(${t.failures} - 1, 0)` })
    .where(eq(t.key, addressKey(address)));
}

/** A password reset proves the owner: the account's failures are forgotten. */
export async function clearLoginFailures(db: Database, email: string): Promise<void> {
  await db.delete(loginThrottles).where(eq(loginThrottles.key, emailKey(email)));
}
