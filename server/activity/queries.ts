import { and, desc, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ActivityEntry, ActivityUser } from '#domain/responses/activity';
import type { ActivityQuery } from '#domain/schemas/activity';
import type { Executor } from '../db';
import { isoText } from '../db/rows';
import { activity, blueprints, users } from '../db/schema';

const fromUser = alias(users, 'from_user');
const toUser = alias(users, 'to_user');

/**
 * The filters asked for, and always: an entry about an item visitors cannot see (hidden by its
 * creator, or its storefront offline) is left out, as the item's page is a 404 for them. Entries
 * about an NFT of no known item stay.
 */
function filtersOf(q: ActivityQuery): SQL | undefined {
  const where: (SQL | undefined)[] = [
    or(
      isNull(activity.blueprintId),
      and(eq(blueprints.visible, true), eq(blueprints.storefrontEnabled, true)),
    ),
  ];
  if (q.kinds?.length) where.push(inArray(activity.kind, q.kinds));
  if (q.storefrontId) where.push(eq(activity.storefrontId, q.storefrontId));
  if (q.blueprintId) where.push(eq(activity.blueprintId, q.blueprintId));
  if (q.nftId) where.push(eq(activity.nftId, q.nftId));
  if (q.userId) where.push(or(eq(activity.fromUserId, q.userId), eq(activity.toUserId, q.userId)));
  return and(...where);
}

type UserColumns = { id: string | null; username: string | null; avatarUrl: string | null };

/** One side of an entry: the account (if any) and the wallet; null when neither is known. */
function side(user: UserColumns | null, address: string | null): ActivityUser | null {
  if (!user?.id && !address) return null;
  return {
    id: user?.id ?? null,
    username: user?.username ?? null,
    avatarUrl: user?.avatarUrl ?? null,
    walletAddress: address,
  };
}

const userColumns = (u: typeof fromUser | typeof toUser) => ({
  id: u.id,
  username: u.username,
  avatarUrl: u.avatarUrl,
});

/** The entries from..to (1-based, inclusive) of the filtered feed, newest first; and whether more follow. */
export async function activityPage(db: Executor, q: ActivityQuery) {
  const limit = q.to - q.from + 1;
  const rows = await db
    .select({
      entry: activity,
      at: isoText(activity.occurredAt),
      title: blueprints.title,
      imageUrl: blueprints.previewImageUrl,
      from: userColumns(fromUser),
      to: userColumns(toUser),
    })
    .from(activity)
    .leftJoin(blueprints, eq(blueprints.id, activity.blueprintId))
    .leftJoin(fromUser, eq(fromUser.id, activity.fromUserId))
    .leftJoin(toUser, eq(toUser.id, activity.toUserId))
    .where(filtersOf(q))
    .orderBy(desc(activity.occurredAt), desc(activity.id))
    .offset(q.from - 1)
    .limit(limit + 1);
  const results: ActivityEntry[] = rows.slice(0, limit).map(({ entry, at, title, imageUrl, from, to }) => ({
    id: entry.id,
    kind: entry.kind,
    item: {
      nftId: entry.nftId,
      blueprintId: entry.blueprintId,
      title,
      imageUrl,
      edition: entry.serialNumber,
    },
    price: entry.price,
    from: side(from, entry.fromAddress),
    to: side(to, entry.toAddress),
    at,
    transactionId: entry.transactionId,
  }));
  return { results, hasMore: rows.length > limit };
}
