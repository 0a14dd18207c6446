import { bigint, index, integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { storefronts } from './catalog';

/**
 * Each storefront's sales figures as of its last refresh (server/stats/refresh.ts, every minute by the
 * job worker): what GET storefronts/{id}/stats, Browse storefronts and Home read, so that none of them
 * aggregates sales on a page view. Money in cents. A sale is a recorded purchase with a price (new
 * editions, resales, accepted offers) or a paid order of new editions not minted yet.
 */
export const storefrontStats = pgTable(
  'storefront_stats',
  {
    storefrontId: uuid('storefront_id')
      .primaryKey()
      .references(() => storefronts.id, { onDelete: 'cascade' }),
    /** The lowest live price of its new editions on sale and its NFTs' active resale listings; null: nothing for sale. */
    floor: bigint('floor', { mode: 'number' }),
    volume24h: bigint('volume_24h', { mode: 'number' }).notNull().default(0),
    sales24h: integer('sales_24h').notNull().default(0),
    volume7d: bigint('volume_7d', { mode: 'number' }).notNull().default(0),
    sales7d: integer('sales_7d').notNull().default(0),
    volumeAll: bigint('volume_all', { mode: 'number' }).notNull().default(0),
    salesAll: integer('sales_all').notNull().default(0),
    /** Distinct holders of its NFTs. */
    owners: integer('owners').notNull().default(0),
    /** Its NFTs with an active resale listing. */
    listed: integer('listed').notNull().default(0),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // Home's top storefronts of the week and Browse storefronts sorted by volume.
    index('storefront_stats_volume_7d_idx').on(t.volume7d, t.storefrontId),
    index('storefront_stats_volume_all_idx').on(t.volumeAll, t.storefrontId),
  ],
);
