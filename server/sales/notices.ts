import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import { formatUsd } from '#domain/money';
import { seriesLabel } from '#domain/nft';
import { primarySaleShares } from '#domain/sales';
import type { Config } from '../config';
import type { Executor } from '../db';
import { blueprints, notifications, storefronts, users } from '../db/schema';
import { saleNoticeEmail } from '../emails/sale';
import { saleEmailsOffUrl } from '../mail/unsubscribe';
import { queueEmail } from '../outbox';

/**
 * "Your item sold": when an order's editions are recorded as sold, the storefront's owner gets an
 * in-app notice per edition (which item, which edition, the price and their net after the platform
 * fee: the creator owes no royalty to themselves) and, unless they turned sale emails off, an email
 * (with a link that turns them off). Both are written in the transaction that records the sale,
 * keyed by the NFT, so a retried fulfilment sends nothing twice.
 * Free claims are not sales: they notify nobody.
 */
export interface SoldEdition {
  blueprintId: string;
  title: string;
  serialNumber: number;
  nftId: string;
  amount: number;
}

export async function recordSaleNotices(
  tx: Executor,
  editions: readonly SoldEdition[],
  at: Date,
  site: Pick<Config, 'publicUrl' | 'jwtSecret'>,
): Promise<void> {
  const sold = editions.filter((e) => e.amount > 0);
  if (sold.length === 0) return;
  const owners = await tx
    .select({
      blueprintId: blueprints.id,
      totalFeePercent: blueprints.totalFeePercent,
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      saleEmails: users.saleEmails,
    })
    .from(blueprints)
    .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
    .innerJoin(users, eq(users.id, storefronts.ownerId))
    .where(
      inArray(
        blueprints.id,
        sold.map((e) => e.blueprintId),
      ),
    );
  const link = `${site.publicUrl}/dashboard/notifications`;
  for (const edition of sold) {
    const owner = owners.find((o) => o.blueprintId === edition.blueprintId);
    if (!owner) continue;
    const { net } = primarySaleShares(edition.amount, owner.totalFeePercent);
    const inserted = await tx
      .insert(notifications)
      .values({
        userId: owner.userId,
        kind: 'sale',
        subject: edition.nftId,
        title: edition.title,
        serialNumber: edition.serialNumber,
        amount: edition.amount,
        net,
        createdAt: at,
      })
      .onConflictDoNothing()
      .returning({ id: notifications.id });
    if (inserted.length === 0 || !owner.saleEmails) continue;
    const email = await saleNoticeEmail(owner.email, {
      firstName: owner.firstName,
      item: `${edition.title} ${seriesLabel(edition.serialNumber)}`,
      price: formatUsd(edition.amount),
      net: formatUsd(net),
      link,
      unsubscribe: saleEmailsOffUrl(site, owner.userId),
    });
    await queueEmail(tx, email, at);
  }
}

/** The account's notices, newest first, with how many are unread. */
export async function listNotices(db: Executor, userId: string, limit: number) {
  const [results, [unread]] = await Promise.all([
    db
      .select({
        id: notifications.id,
        kind: notifications.kind,
        title: notifications.title,
        serialNumber: notifications.serialNumber,
        amount: notifications.amount,
        net: notifications.net,
        read: notifications.readAt,
        createdAt: notifications.createdAt,
      })
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(limit),
    db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt))),
  ]);
  return {
    results: results.map((r) => ({ ...r, read: r.read !== null })),
    unread: Number(unread?.n ?? 0),
  };
}

/** Marks every unread notice of the account read. */
export async function readNotices(db: Executor, userId: string, at: Date) {
  await db
    .update(notifications)
    .set({ readAt: at })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}
