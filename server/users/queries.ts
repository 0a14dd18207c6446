import { and, eq, ne, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { ErrorCode } from '#domain/errors';
import { type Executor, type Transaction, uniqueViolation } from '../db';
import { kycVerifications, users, webhookEvents } from '../db/schema';
import { badRequest, type HttpError, type UserRow } from '../http';

/**
 * The SQL of the user routes: users by id, email or wallet, the uniqueness checks, writes, the KYC
 * row and the record of an identity webhook.
 */

export type Kyc = typeof kycVerifications.$inferSelect;
export type NewUser = typeof users.$inferInsert;

export function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: eq(users.id, id) });
}

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: eq(users.email, email) });
}

/** The user holding this wallet address (at most one). */
export async function findUserByWallet(db: Executor, walletAddress: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.walletAddress, walletAddress));
  return row;
}

export async function findKyc(db: Executor, userId: string): Promise<Kyc | undefined> {
  return db.query.kycVerifications.findFirst({ where: eq(kycVerifications.userId, userId) });
}

export async function walletExists(db: Executor, walletAddress: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.walletAddress, walletAddress))
    .limit(1);
  return row !== undefined;
}

type Unique = { email?: string; username?: string; walletAddress?: string | null };

const conflicts = {
  users_email_unique: () => badRequest(ErrorCode.EMAIL_EXISTS, 'email'),
  users_username_unique: () => badRequest(ErrorCode.USERNAME_EXISTS, 'username'),
  users_wallet_address_unique: () => badRequest(ErrorCode.WALLET_EXISTS, 'walletAddress'),
} as const;

/** The first of email, username (case-insensitive), wallet address already held by another user. */
export async function takenBy(
  db: Executor,
  values: Unique,
  exceptUserId?: string,
): Promise<HttpError | undefined> {
  const other = (condition: ReturnType<typeof eq>) =>
    db
      .select({ id: users.id })
      .from(users)
      .where(exceptUserId ? and(condition, ne(users.id, exceptUserId)) : condition)
      .limit(1)
      .then((rows) => rows.length > 0);
  if (values.email && (await other(eq(users.email, values.email)))) return conflicts.users_email_unique();
  if (values.username && (await other(eq(sql`lower(${users.username})`, values.username.toLowerCase())))) {
    return conflicts.users_username_unique();
  }
  if (values.walletAddress && (await other(eq(users.walletAddress, values.walletAddress)))) {
    return conflicts.users_wallet_address_unique();
  }
  return undefined;
}

/**
 * Runs a write that may break a uniqueness rule. Callers check takenBy first for a precise answer;
 * this turns the constraint error of a concurrent request that got there first into the same 400.
 */
export async function uniquely<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const constraint = uniqueViolation(err);
    if (constraint !== undefined && constraint in conflicts)
      throw conflicts[constraint as keyof typeof conflicts]();
    throw err;
  }
}

/** The update that ends every session of the user: tokens carry the old token version. */
export const nextTokenVersion = sql<number>`${users.tokenVersion} + 1`;

export async function insertUser(db: Executor, values: NewUser): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function updateUser(
  db: Executor,
  id: string,
  values: PgUpdateSetSource<typeof users>,
): Promise<UserRow> {
  const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  return row!;
}

/**
 * Records an identity-provider webhook under its key, inside the transaction that applies it: false
 * when that key is already recorded (a repeat delivery).
 */
export async function recordKycWebhook(
  tx: Transaction,
  id: string,
  type: string,
  at: Date,
): Promise<boolean> {
  const inserted = await tx
    .insert(webhookEvents)
    .values({ id, provider: 'veriff', type, receivedAt: at })
    .onConflictDoNothing({ target: webhookEvents.id })
    .returning({ id: webhookEvents.id });
  return inserted.length > 0;
}
