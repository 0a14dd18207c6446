import { index, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { blueprints } from './catalog';

/**
 * Items a user saved to watch (the heart): one row per (user, blueprint), so saving twice keeps one
 * row. Listed newest first; the notices of a price drop or an opening sale go to every user who
 * saved the item (server/favorites/notices.ts).
 */
export const favorites = pgTable(
  'favorites',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blueprintId: uuid('blueprint_id')
      .notNull()
      .references(() => blueprints.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.blueprintId] }),
    index('favorites_user_idx').on(t.userId, t.createdAt),
    index('favorites_blueprint_idx').on(t.blueprintId),
  ],
);
