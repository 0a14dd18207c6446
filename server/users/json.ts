import type { User } from '#domain/user';
import type { Executor } from '../db';
import type { UserRow } from '../http';
import { ownedNftCount } from './kyc';
import { findKyc, type Kyc } from './queries';

/** A user as the API returns it to a viewer: the email only to the user and to admins. */
export async function presentUser(db: Executor, row: UserRow, viewer: UserRow | undefined): Promise<User> {
  const showEmail = viewer?.id === row.id || viewer?.role === 'admin';
  const [kyc, nfts] = await Promise.all([findKyc(db, row.id), ownedNftCount(db, row.walletAddress)]);
  return userJson(row, kyc, nfts, { showEmail, self: viewer?.id === row.id });
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
