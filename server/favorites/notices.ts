import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { formatUsd } from '#domain/money';
import type { Config } from '../config';
import type { Database, Executor } from '../db';
import { blueprints, favorites, MARKET_WHERE, nfts, notifications, saleListings, users } from '../db/schema';
import { favoriteNoticeEmail } from '../emails/favorite';
import { enqueueJob, type JobHandler } from '../jobs';
import { emailsOffUrl } from '../mail/unsubscribe';
import { queueEmail } from '../outbox';

/**
 * Notices to the users who saved an item (favorites), in the app and, unless they turned favorite
 * emails off, by email:
 * - priceDrop: a new resale listing of the item asks less than its lowest live price before it (the
 *   cheapest other active listing, and the price of new editions while they are on sale). An item
 *   with no live price before has nothing to drop from.
 * - saleOpen: the item's sale start (availableTime) passed, within the last day, while visitors may
 *   see it.
 * Each is a job (FAVORITE_NOTICE_JOB) keyed by the event, and each notice has the unique key (user,
 * kind, subject: the listing, or the blueprint), so a job run twice, or an event seen twice,
 * notifies nobody twice.
 */
export const FAVORITE_NOTICE_JOB = 'favorite.notify';

/** How far back a passed sale start still opens a sale worth telling (a worker down that long misses it). */
export const SALE_OPEN_WINDOW_MS = 24 * 3600_000;

/** New editions of the item are on sale on their own now (the checkout's rule for a blueprint). */
const onSaleNow = (now: Date) =>
  sql`${sql.raw(MARKET_WHERE)} and ${blueprints.state} in ('available', 'active')
    and ${blueprints.quantityAvailable} > 0 and ${blueprints.price} > 0 and ${blueprints.blueprintPackId} is null
    and (${blueprints.availableTime} is null or ${blueprints.availableTime} <= ${now})`;

/** The item's lowest live price (cents) leaving out one listing; null when nothing is for sale. */
async function lowestLivePrice(tx: Executor, flowBlueprintId: number, exceptListing: string, now: Date) {
  const [listed] = await tx
    .select({ price: sql<number | null>`min(${saleListings.price})`.mapWith(Number) })
    .from(saleListings)
    .innerJoin(nfts, eq(nfts.id, saleListings.nftId))
    .where(
      and(
        eq(nfts.blueprintId, flowBlueprintId),
        eq(saleListings.status, 'active'),
        sql`${saleListings.blockchainListingId} <> ${exceptListing}`,
      ),
    );
  const [fresh] = await tx
    .select({ price: blueprints.price })
    .from(blueprints)
    .where(and(eq(blueprints.flowBlueprintId, flowBlueprintId), onSaleNow(now)));
  const prices = [listed?.price, fresh?.price].filter((p): p is number => typeof p === 'number' && p > 0);
  return prices.length === 0 ? null : Math.min(...prices);
}

/**
 * In the transaction that records a listing: when someone saved its item and it asks less than the
 * item's lowest live price before it, the price-drop notices are queued.
 */
export async function noteListing(
  tx: Executor,
  listing: { blockchainListingId: string; nftId: string; price: number },
  now: Date,
): Promise<void> {
  const [item] = await tx
    .select({ flowBlueprintId: blueprints.flowBlueprintId })
    .from(nfts)
    .innerJoin(blueprints, eq(blueprints.flowBlueprintId, nfts.blueprintId))
    .innerJoin(favorites, eq(favorites.blueprintId, blueprints.id))
    .where(eq(nfts.id, listing.nftId))
    .limit(1);
  if (!item) return;
  const before = await lowestLivePrice(tx, item.flowBlueprintId, listing.blockchainListingId, now);
  if (before === null || listing.price >= before) return;
  await enqueueJob(tx, FAVORITE_NOTICE_JOB, `priceDrop:${listing.blockchainListingId}:${before}`, now);
}

/** The periodic sweep: queues the saleOpen notices of saved items whose sale start just passed. */
export async function queueOpenedSales(db: Database, now: Date): Promise<number> {
  const opened = await db
    .selectDistinct({ id: blueprints.id })
    .from(favorites)
    .innerJoin(blueprints, eq(blueprints.id, favorites.blueprintId))
    .where(
      and(
        lte(blueprints.availableTime, now),
        gt(blueprints.availableTime, new Date(now.getTime() - SALE_OPEN_WINDOW_MS)),
        sql.raw(MARKET_WHERE),
      ),
    );
  for (const { id } of opened) await enqueueJob(db, FAVORITE_NOTICE_JOB, `saleOpen:${id}`, now);
  return opened.length;
}

interface Event {
  kind: 'priceDrop' | 'saleOpen';
  subject: string;
  blueprintId: string;
  title: string;
  serialNumber: number | null;
  amount: number;
  net: number | null;
}

/** The event a job's key names, read as it stands now; undefined when it no longer holds. */
async function eventOf(db: Executor, key: string, now: Date): Promise<Event | undefined> {
  const [kind, subject, before] = key.split(':');
  if (kind === 'priceDrop' && subject && before) {
    const [row] = await db
      .select({
        blueprintId: blueprints.id,
        title: blueprints.title,
        serialNumber: nfts.serialNumber,
        price: saleListings.price,
      })
      .from(saleListings)
      .innerJoin(nfts, eq(nfts.id, saleListings.nftId))
      .innerJoin(blueprints, eq(blueprints.flowBlueprintId, nfts.blueprintId))
      .where(
        and(
          eq(saleListings.blockchainListingId, subject),
          eq(saleListings.status, 'active'),
          sql.raw(MARKET_WHERE),
        ),
      );
    return row && { kind, subject, ...row, amount: row.price, net: Number(before) };
  }
  if (kind === 'saleOpen' && subject) {
    const [row] = await db
      .select({ blueprintId: blueprints.id, title: blueprints.title, price: blueprints.price })
      .from(blueprints)
      .where(and(eq(blueprints.id, subject), lte(blueprints.availableTime, now), sql.raw(MARKET_WHERE)));
    return row && { kind, subject, ...row, serialNumber: null, amount: row.price, net: null };
  }
  return undefined;
}

const texts = (e: Event) =>
  e.kind === 'priceDrop'
    ? {
        subject: `Price drop: ${e.title}`,
        text: `${e.title} is now ${formatUsd(e.amount)} (was ${formatUsd(e.net ?? 0)}).`,
      }
    : { subject: `On sale now: ${e.title}`, text: `${e.title} is on sale now for ${formatUsd(e.amount)}.` };

/** Writes the event's notices (and emails) for every user who saved the item, in one transaction. */
async function notifySavers(tx: Executor, e: Event, at: Date, site: Pick<Config, 'publicUrl' | 'jwtSecret'>) {
  const savers = await tx
    .select({ userId: favorites.userId })
    .from(favorites)
    .where(eq(favorites.blueprintId, e.blueprintId));
  if (savers.length === 0) return;
  const { blueprintId: _, ...notice } = e;
  const added = await tx
    .insert(notifications)
    .values(savers.map(({ userId }) => ({ ...notice, userId, createdAt: at })))
    .onConflictDoNothing()
    .returning({ userId: notifications.userId });
  if (added.length === 0) return;
  const readers = await tx
    .select({ id: users.id, email: users.email, firstName: users.firstName })
    .from(users)
    .where(
      and(
        inArray(
          users.id,
          added.map((a) => a.userId),
        ),
        eq(users.favoriteEmails, true),
      ),
    );
  const { subject, text } = texts(e);
  for (const reader of readers) {
    const email = await favoriteNoticeEmail(reader.email, {
      firstName: reader.firstName,
      item: e.title,
      subject,
      text,
      link: `${site.publicUrl}/nft/${e.blueprintId}`,
      unsubscribe: emailsOffUrl(site, reader.id, 'favorite'),
    });
    await queueEmail(tx, email, at);
  }
}

export function createFavoriteNotices(deps: {
  db: Database;
  site: Pick<Config, 'publicUrl' | 'jwtSecret'>;
  now?: () => Date;
}): JobHandler {
  return {
    async run(job) {
      const now = deps.now?.() ?? new Date();
      await deps.db.transaction(async (tx) => {
        const event = await eventOf(tx, job.key, now);
        if (event) await notifySavers(tx, event, now, deps.site);
      });
    },
  };
}
