import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { blueprints, storefronts } from './catalog';

export const activityKind = pgEnum('activity_kind', [
  'sale',
  'listing',
  'delisting',
  'mint',
  'transfer',
  'offer',
  'offerAccepted',
]);

/**
 * The marketplace's activity feed (GET /api/activity): one row per fact of the chain or of the order
 * records (server/activity/record.ts), written in the transaction that records the fact itself. `key`
 * names the source fact (e.g. "listing:<listing id>", "purchase:<transaction id>"), so a replayed
 * event or a re-indexed block range adds nothing. Item and user ids are resolved when the row is
 * written; titles, images and names are read when the feed is.
 */
export const activity = pgTable(
  'activity',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull().unique('activity_key_unique'),
    kind: activityKind('kind').notNull(),
    /** The VitrineNFT token id (UInt64, decimal), when the fact is about one NFT. */
    nftId: text('nft_id'),
    blueprintId: uuid('blueprint_id').references(() => blueprints.id, { onDelete: 'set null' }),
    storefrontId: uuid('storefront_id').references(() => storefronts.id, { onDelete: 'set null' }),
    serialNumber: integer('serial_number'),
    /** FUSD cents (sales, listings, offers). */
    price: bigint('price', { mode: 'number' }),
    fromAddress: text('from_address'),
    toAddress: text('to_address'),
    fromUserId: uuid('from_user_id').references(() => users.id, { onDelete: 'set null' }),
    toUserId: uuid('to_user_id').references(() => users.id, { onDelete: 'set null' }),
    transactionId: text('transaction_id'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // Newest first, for the whole feed and for each filter.
    index('activity_time_idx').on(t.occurredAt, t.id),
    index('activity_kind_idx').on(t.kind, t.occurredAt, t.id),
    index('activity_storefront_idx').on(t.storefrontId, t.occurredAt, t.id),
    index('activity_blueprint_idx').on(t.blueprintId, t.occurredAt, t.id),
    index('activity_nft_idx').on(t.nftId, t.occurredAt, t.id),
    index('activity_from_user_idx').on(t.fromUserId, t.occurredAt, t.id),
    index('activity_to_user_idx').on(t.toUserId, t.occurredAt, t.id),
    // A transfer and the sale that made it, found by their transaction (one fact, one entry).
    index('activity_transaction_idx').on(t.transactionId, t.nftId).where(sql`${t.transactionId} is not null`),
  ],
);
