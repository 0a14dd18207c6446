import { and, asc, count, desc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Database, Executor } from './db';
import { rateEvents } from './db/schema';
import { type HttpError, rateLimited } from './http';

/**
 * Rate limits over sliding windows, kept in the database (so every server on one PostgreSQL counts
 * the same actions). A limit names the key an action is counted under, how many actions the window
 * holds and how long the window is; an action is allowed when every limit it falls under has room,
 * and then it is counted under each. Limits of one key are checked and counted under a transaction
 * advisory lock on the key, so concurrent requests cannot both take the last slot.
 */
export interface WindowLimit {
  key: string;
  max: number;
  windowMs: number;
}

/**
 * A growing delay instead of a cap: the first `free` actions in the window cost nothing; after
 * that, each one must come at least `baseMs × 2^(n − free)` (at most `maxDelayMs`) after the
 * previous, n being how many the window already holds.
 */
export interface DelayLimit {
  key: string;
  free: number;
  baseMs: number;
  maxDelayMs: number;
  windowMs: number;
}

export type Limit = WindowLimit | DelayLimit;

/** How long until `limit` lets one more action through (0: now). */
async function waitFor(tx: Executor, limit: Limit, now: Date): Promise<number> {
  const since = new Date(now.getTime() - limit.windowMs);
  const inWindow = and(eq(rateEvents.key, limit.key), gt(rateEvents.at, since), lte(rateEvents.at, now));
  const [counted] = await tx.select({ n: count() }).from(rateEvents).where(inWindow);
  const n = Number(counted?.n ?? 0);
  if ('max' in limit) {
    if (n < limit.max) return 0;
    // The window has room again once its (n − max + 1)-th oldest action leaves it.
    const [freed] = await tx
      .select({ at: rateEvents.at })
      .from(rateEvents)
      .where(inWindow)
      .orderBy(asc(rateEvents.at))
      .offset(n - limit.max)
      .limit(1);
    return freed ? freed.at.getTime() + limit.windowMs - now.getTime() : 0;
  }
  if (n < limit.free) return 0;
  const gap = Math.min(limit.maxDelayMs, limit.baseMs * 2 ** (n - limit.free));
  const [last] = await tx
    .select({ at: rateEvents.at })
    .from(rateEvents)
    .where(inWindow)
    .orderBy(desc(rateEvents.at))
    .limit(1);
  return last ? Math.max(0, last.at.getTime() + gap - now.getTime()) : 0;
}

/**
 * Counts one action under every limit, or throws 429 (RATE_LIMITED, or `refusal`'s error) with
 * Retry-After for the longest wait when any limit has no room; nothing is counted then.
 */
export async function takeSlot(
  db: Database,
  now: Date,
  limits: Limit[],
  refusal: (retryAfterMs: number) => HttpError = (ms) => rateLimited(ms),
): Promise<void> {
  await db.transaction(async (tx) => {
    const keys = [...new Set(limits.map((l) => l.key))].sort();
    for (const key of keys) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
    let wait = 0;
    for (const limit of limits) wait = Math.max(wait, await waitFor(tx, limit, now));
    if (wait > 0) throw refusal(wait);
    for (const limit of limits) {
      // What no window looks at any more goes.
      await tx
        .delete(rateEvents)
        .where(
          and(eq(rateEvents.key, limit.key), lte(rateEvents.at, new Date(now.getTime() - limit.windowMs))),
        );
    }
    await tx.insert(rateEvents).values(limits.map((l) => ({ key: l.key, at: now })));
  });
}
