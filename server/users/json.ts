import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { User } from '#domain/user';
import { type Database, type Executor, prepareNamed } from '../db';
import { emailChanges, kycVerifications, nfts, users } from '../db/schema';
import type { UserRow } from '../http';
import { ownedNftCount } from './kyc';
import { findKyc, type Kyc } from './queries';

/** A user as the API returns it to a viewer: the email only to the user and to admins. */
export async function presentUser(db: Executor, row: UserRow, viewer: UserRow | undefined): Promise<User> {
  const showEmail = viewer?.id === row.id || viewer?.role === 'admin';
  const [kyc, nfts] = await Promise.all([findKyc(db, row.id), ownedNftCount(db, row.walletAddress)]);
  return userJson(row, kyc, nfts, { showEmail, self: viewer?.id === row.id });
}

/** A user as they see themselves: everything, with the address waiting for confirmation if any. */
export type Me = User & { pendingEmail: string | null };

/**
 * What the signed-in user's own answer adds to their row (their KYC record, the NFTs their wallet
 * holds, the email address waiting for confirmation), read with one prepared statement: every page
 * load of a signed-in visitor asks for it.
 */
export function meReader(db: Database): (me: UserRow, now: Date) => Promise<Me> {
  let query: ReturnType<typeof prepareMe> | undefined;
  return async (me, now) => {
    query ??= prepareMe(db);
    const [row] = await query.execute({ userId: me.id, now });
    return {
      ...userJson(me, row?.kyc ?? undefined, row?.nfts ?? 0, { showEmail: true, self: true }),
      pendingEmail: row?.pendingEmail ?? null,
    };
  };
}

function prepareMe(db: Database) {
  const query = db
    .select({
      kyc: kycVerifications,
      nfts: sql<number>`(select count(*)::int from ${nfts} where ${nfts.owner} = ${users.walletAddress})`,
      pendingEmail: sql<string | null>`(select ${emailChanges.newEmail} from ${emailChanges} where ${and(
        eq(emailChanges.userId, users.id),
        isNull(emailChanges.confirmedAt),
        gt(emailChanges.expiresAt, sql.placeholder('now')),
      )} limit 1)`,
    })
    .from(users)
    .leftJoin(kycVerifications, eq(kycVerifications.userId, users.id))
    .where(eq(users.id, sql.placeholder('userId')));
  return prepareNamed(query, 'users_me');
}

function userJson(
  row: UserRow,
  kyc: Kyc | undefined,
  nfts: number,
  options: { showEmail: boolean; self: boolean },
): User {
  return {
    id: row.id,
    email: options.showEmail ? row.email : null,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    walletAddress: row.walletAddress,
    ethAddress: row.ethAddress,
    collectorScore: row.collectorScore,
    viewedCollectorScore: row.viewedCollectorScore,
    level: row.level,
    createdAt: row.createdAt.toISOString(),
    avatarUrl: row.avatarUrl,
    identiconAvatar: null,
    role: row.role,
    status: row.status,
    wallet: { walletAddress: row.walletAddress },
    nfts,
    // Preferences: only the user sees them.
    ...(options.self && { saleEmails: row.saleEmails }),
    kyc: {
      id: kyc?.id ?? null,
      sessionId: kyc?.sessionId ?? null,
      url: kyc?.url ?? null,
      status: kyc?.status ?? 'unknown',
      code: kyc?.code ?? null,
      firstName: kyc?.firstName ?? null,
      lastName: kyc?.lastName ?? null,
      reason: kyc?.reason ?? null,
      reasonCode: kyc?.reasonCode ?? null,
      updatedAt: kyc?.updatedAt?.toISOString() ?? null,
    },
  };
}
