import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import { ErrorCode } from '../../src/domain/errors';
import type { Database } from '../db';
import { loginAttempts } from '../db/schema';
import type { Clock } from '../deps';
import { apiError } from '../http';

/** Login rate limit: at most 10 failed attempts per email and per client address in 15 minutes. */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 15 * 60_000;

export interface Attempt {
  email: string;
  address: string;
}

/** Throws a 429 when the email or the address has used up its failures; Retry-After gives the window. */
export async function assertLoginAllowed(
  db: Database,
  clock: Clock,
  { email, address }: Attempt,
): Promise<void> {
  const now = clock().getTime();
  const [row] = await db
    .select({
      byEmail: sql<number>`count(*) filter (where ${loginAttempts.email} = ${email})`.mapWith(Number),
      byAddress: sql<number>`count(*) filter (where ${loginAttempts.address} = ${address})`.mapWith(Number),
    })
    .from(loginAttempts)
    .where(
      and(
        gt(loginAttempts.createdAt, new Date(now - LOGIN_WINDOW_MS)),
        or(eq(loginAttempts.email, email), eq(loginAttempts.address, address)),
      ),
    );
  if (row && (row.byEmail >= LOGIN_MAX_FAILURES || row.byAddress >= LOGIN_MAX_FAILURES)) {
    const err = apiError(429, ErrorCode.RATE_LIMITED);
    err.headers['Retry-After'] = String(LOGIN_WINDOW_MS / 1000);
    throw err;
  }
}

export async function recordLoginFailure(db: Database, clock: Clock, attempt: Attempt): Promise<void> {
  const now = clock();
  await db.insert(loginAttempts).values({ ...attempt, createdAt: now });
  await db
    .delete(loginAttempts)
    .where(lt(loginAttempts.createdAt, new Date(now.getTime() - LOGIN_WINDOW_MS)));
}

/** A successful login forgives the email's earlier failures (the address keeps its count). */
export async function clearLoginFailures(db: Database, email: string): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.email, email));
}
