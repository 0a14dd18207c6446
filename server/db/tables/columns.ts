import { timestamp } from 'drizzle-orm/pg-core';

/**
 * Column helpers shared by the tables.
 */

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
