import { eq, inArray, lte, sql } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Database, Executor } from '../db';
import { loginThrottles } from '../db/schema';
import { rateLimited } from '../http';

/**
 * Login throttling, after OWASP's "slow down online guessing attacks with device cookies".
 * - A trusted client presents the device cookie (devices.ts) of the account it signs in to. No
 *   account, address or pair limit applies to it, so nobody else's guessing keeps the owner's
 *   browser out. Its device alone is counted: once the device has failed DEVICE_MAX_FAILURES
 *   times, its cookie is ignored (the client is untrusted) until it is forgotten, so a stolen
 *   cookie buys that many guesses and no more.
 * - Every other client is untrusted:
 *   - Per account, a growing delay: the first ACCOUNT_FREE_FAILURES failures cost nothing, then
 *     each further failure makes the next untrusted attempt on the account wait 1 s, 2 s, 4 s … up
 *     to ACCOUNT_MAX_DELAY_MS.
 *   - Per (address, account): which accounts an address has failed against.
 *   - Per address, a pace against credential stuffing: once the address has failed against
 *     ADDRESS_FREE_ACCOUNTS different accounts, it may make one attempt per ADDRESS_PACE_MS. It is
 *     never locked out: an account it has not failed against waits at most that long.
 * - Every count is forgotten FORGET_MS after it last grew, and its row is pruned.
 * An attempt is counted before its password is checked, all of an untrusted attempt's counts in
 * one transaction: concurrent attempts take turns on each row, so a burst cannot overshoot a
 * limit, and an attempt refused by one limit counts against none. A successful login gives back
 * what its attempt counted and forgets the account's failures.
 */
export const DEVICE_MAX_FAILURES = 10;
export const ACCOUNT_FREE_FAILURES = 5;
export const ACCOUNT_MAX_DELAY_MS = 30_000;
export const ADDRESS_FREE_ACCOUNTS = 20;
export const ADDRESS_PACE_MS = 1000;
export const FORGET_MS = 15 * 60_000;
/** Forgotten rows deleted by each attempt, so they never pile up. */
export const PRUNE_BATCH = 50;

export interface Attempt {
  email: string;
  address: string;
  /** The device id of a device cookie naming the account (devices.ts). */
  device?: string;
}

/** What an admitted attempt counted: its device (a trusted client), or its account and address. */
export type Counted = { device: string } | { email: string; address: string };

const t = loginThrottles;
const deviceKey = (device: string) => `device:${device}`;
const accountKey = (email: string) => `account:${email}`;
const pairKey = (address: string, email: string) => `pair:${address} ${email}`;
const addressKey = (address: string) => `address:${address}`;

const forgotten = (now: Date) => sql`${t.updatedAt} <= ${new Date(now.getTime() - FORGET_MS)}`;
/** A row's failures, or 0 once they are forgotten. */
const counted = (now: Date) => sql`(case when ${forgotten(now)} then 0 else ${t.failures} end)`;

/** The wait an untrusted client owes after an account's `failures`-th failure in a row. */
export function accountDelayMs(failures: number): number {
  if (failures < ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(ACCOUNT_MAX_DELAY_MS, 1000 * 2 ** (failures - ACCOUNT_FREE_FAILURES));
}

/**
 * Counts a login attempt before its password is checked and answers what it counted; throws 429
 * (with Retry-After) when the client must wait.
 */
export async function beginLoginAttempt(db: Database, clock: Clock, attempt: Attempt): Promise<Counted> {
  const now = clock();
  await pruneThrottles(db, now);
  const { email, address, device } = attempt;
  if (device && (await countDevice(db, now, device))) return { device };
  await db.transaction(async (tx) => {
    await claimPace(tx, now, address);
    const firstOnAccount = await countPair(tx, now, address, email);
    await claimAccount(tx, now, email);
    if (firstOnAccount)
      await tx
        .update(t)
        .set({ failures: sql`${counted(now)} + 1`, updatedAt: now })
        .where(eq(t.key, addressKey(address)));
  });
  return { email, address };
}

/** Counts a failure of the device unless it already has DEVICE_MAX_FAILURES; false then. */
async function countDevice(db: Database, now: Date, device: string): Promise<boolean> {
  const [row] = await db
    .insert(t)
    .values({ key: deviceKey(device), failures: 1, nextAllowedAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: t.key,
      set: { failures: sql`${counted(now)} + 1`, updatedAt: now },
      setWhere: sql`${counted(now)} < ${DEVICE_MAX_FAILURES}`,
    })
    .returning({ key: t.key });
  return row !== undefined;
}

/** Takes the address's turn: refused while a paced address's next turn has not come. */
async function claimPace(tx: Executor, now: Date, address: string): Promise<void> {
  const nextTurn = new Date(now.getTime() + ADDRESS_PACE_MS);
  const [row] = await tx
    .insert(t)
    .values({ key: addressKey(address), failures: 0, nextAllowedAt: nextTurn, updatedAt: now })
    .onConflictDoUpdate({
      target: t.key,
      set: { nextAllowedAt: nextTurn },
      setWhere: sql`${counted(now)} < ${ADDRESS_FREE_ACCOUNTS} or ${t.nextAllowedAt} <= ${now}`,
    })
    .returning({ key: t.key });
  if (!row) throw await refusal(tx, now, addressKey(address));
}

/** Counts the address's attempt on the account; true when it is its first there (not forgotten). */
async function countPair(tx: Executor, now: Date, address: string, email: string): Promise<boolean> {
  const [row] = await tx
    .insert(t)
    .values({ key: pairKey(address, email), failures: 1, nextAllowedAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: t.key, set: { failures: sql`${counted(now)} + 1`, updatedAt: now } })
    .returning({ failures: t.failures });
  return row!.failures === 1;
}

/** Claims the account's next untrusted attempt once its wait is over, setting the wait after it. */
async function claimAccount(tx: Executor, now: Date, email: string): Promise<void> {
  const failures = sql`(${counted(now)} + 1)`;
  const [row] = await tx
    .insert(t)
    .values({
      key: accountKey(email),
      failures: 1,
      nextAllowedAt: new Date(now.getTime() + accountDelayMs(1)),
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures,
        nextAllowedAt: sql`${now}::timestamptz + least(${ACCOUNT_MAX_DELAY_MS}, case when ${failures} < ${ACCOUNT_FREE_FAILURES} then 0
          else 1000 * power(2, ${failures} - ${ACCOUNT_FREE_FAILURES}) end) * interval '1 millisecond'`,
        updatedAt: now,
      },
      setWhere: sql`${t.nextAllowedAt} <= ${now} or ${forgotten(now)}`,
    })
    .returning({ key: t.key });
  if (!row) throw await refusal(tx, now, accountKey(email));
}

async function refusal(tx: Executor, now: Date, key: string) {
  const [row] = await tx.select({ nextAllowedAt: t.nextAllowedAt }).from(t).where(eq(t.key, key));
  return rateLimited((row?.nextAllowedAt.getTime() ?? now.getTime()) - now.getTime());
}

/**
 * A successful login: a trusted client's device failures are forgiven; an untrusted client's
 * account failures are forgotten and its address no longer counts the account as failed against.
 */
export async function loginSucceeded(db: Database, what: Counted): Promise<void> {
  if ('device' in what) {
    await db.delete(t).where(eq(t.key, deviceKey(what.device)));
    return;
  }
  await db.delete(t).where(eq(t.key, accountKey(what.email)));
  const pair = await db
    .delete(t)
    .where(eq(t.key, pairKey(what.address, what.email)))
    .returning({ key: t.key });
  if (pair.length > 0)
    await db
      .update(t)
      .set({ failures: sql`greatest(${t.failures} - 1, 0)` })
      .where(eq(t.key, addressKey(what.address)));
}

/** A password reset proves the owner: the account's failures are forgotten. */
export async function clearLoginFailures(db: Database, email: string): Promise<void> {
  await db.delete(t).where(eq(t.key, accountKey(email)));
}

/**
 * Deletes up to PRUNE_BATCH forgotten rows, skipping rows an attempt holds (waiting for them while
 * holding others could deadlock with it).
 */
async function pruneThrottles(db: Database, now: Date): Promise<void> {
  const dead = db
    .select({ key: t.key })
    .from(t)
    .where(lte(t.updatedAt, new Date(now.getTime() - FORGET_MS)))
    .limit(PRUNE_BATCH)
    .for('update', { skipLocked: true });
  await db.delete(t).where(inArray(t.key, dead));
}
