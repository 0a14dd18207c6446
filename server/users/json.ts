import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { PublicUser, User } from '#domain/user';
import type { Clock } from '../clock';
import { type Database, prepareNamed } from '../db';
import { emailChanges, kycVerifications, nfts, users } from '../db/schema';
import type { UserRow } from '../http';
import type { Kyc } from './queries';

/** A user as they see themselves: everything, with the address waiting for confirmation if any. */
export type Me = User & { pendingEmail: string | null };

export interface UserPresenter {
  /**
   * A user as the API returns it to a viewer: the email and the identity verification only to the
   * user and to admins, the preferences only to the user.
   */
  user(row: UserRow, viewer: UserRow | undefined): Promise<User | PublicUser>;
  /** The signed-in user as they see themselves (every page load of a signed-in visitor asks). */
  me(row: UserRow): Promise<Me>;
}

/**
 * Users as the API answers them. What an answer adds to the user's row (their KYC record, the NFTs
 * their wallet holds, the email address waiting for confirmation) is read with one prepared
 * statement: building three queries per request cost more than running them.
 */
export function userPresenter(db: Database, clock: Clock): UserPresenter {
  let query: ReturnType<typeof prepareExtras> | undefined;
  const extras = async (row: UserRow) => {
    query ??= prepareExtras(db);
    const [extra] = await query.execute({ userId: row.id, now: clock() });
    return extra;
  };
  return {
    async user(row, viewer) {
      const extra = await extras(row);
      const self = viewer?.id === row.id;
      const user = publicUserJson(row, extra?.nfts ?? 0);
      if (!self && viewer?.role !== 'admin') return { ...user, email: null };
      return {
        ...user,
        ...(self && { saleEmails: row.saleEmails, favoriteEmails: row.favoriteEmails }),
        kyc: kycJson(extra?.kyc ?? undefined),
      };
    },
    async me(row) {
      const extra = await extras(row);
      return {
        ...publicUserJson(row, extra?.nfts ?? 0),
        saleEmails: row.saleEmails,
        favoriteEmails: row.favoriteEmails,
        kyc: kycJson(extra?.kyc ?? undefined),
        pendingEmail: extra?.pendingEmail ?? null,
      };
    },
  };
}

function prepareExtras(db: Database) {
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
  return prepareNamed(query, 'users_answer_extras');
}

/** What anyone may see of a user (the caller blanks the email of someone else's). */
function publicUserJson(row: UserRow, nfts: number): PublicUser {
  return {
    id: row.id,
    email: row.email,
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
  };
}

/** The identity verification record, for its person and for admins only. */
function kycJson(kyc: Kyc | undefined): User['kyc'] {
  return {
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
  };
}
