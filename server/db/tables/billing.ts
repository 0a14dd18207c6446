import { integer, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { blueprints } from './catalog';
import { createdAt } from './columns';
import { orders } from './orders';

/**
 * Saved cards (billing infos) and free blueprint claims.
 */

/** Billing info status: missingSource, unverified, verified, invalid. */
export const billingInfoStatus = pgEnum('billing_info_status', [
  'missingSource',
  'unverified',
  'verified',
  'invalid',
]);

/**
 * Saved cards (billing infos): the provider's card source (src_…), never the card number; the
 * last four digits are unique per user.
 */
export const billingInfos = pgTable(
  'billing_infos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceId: text('source_id'),
    lastFourDigits: text('last_four_digits').notNull(),
    scheme: text('scheme'),
    expiryMonth: integer('expiry_month'),
    expiryYear: integer('expiry_year'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name'),
    addressLine1: text('address_line1').notNull(),
    addressLine2: text('address_line2'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    country: text('country').notNull(),
    zipCode: text('zip_code').notNull(),
    phoneCountryCode: text('phone_country_code').notNull(),
    phoneNumber: text('phone_number').notNull(),
    status: billingInfoStatus('status').notNull().default('unverified'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('billing_infos_last4_unique').on(t.userId, t.lastFourDigits)],
);

/** Free blueprints claimed: one per user and blueprint. */
export const freeBlueprintClaims = pgTable(
  'free_blueprint_claims',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blueprintId: uuid('blueprint_id')
      .notNull()
      .references(() => blueprints.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('free_blueprint_claims_once').on(t.userId, t.blueprintId)],
);
