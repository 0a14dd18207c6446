import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { blueprints, storefronts } from './catalog';
import { createdAt } from './columns';
/* ---------------------------------------------------------------------------------------------
 * Checkout: orders for new editions (blueprints and packs), paid by a rail (a card charge today)
 * or claimed for free, fulfilled by a durable job that mints each edition to the buyer's wallet.
 * ------------------------------------------------------------------------------------------- */

/** How an order is paid (the purchase methods that reserve an edition first). */
export const orderMethod = pgEnum('order_method', [
  'creditCard',
  'freeBlueprintClaim',
  'coinbase',
  'fusd',
  'wert',
  'token',
]);
export const orderItemKind = pgEnum('order_item_kind', ['blueprint', 'pack']);
/**
 * An order's life: created (inventory reserved, payment not settled) → authorized → captured →
 * minting → minted; or canceled / expired / declined (reservation released, nothing charged), or
 * voided / refunded (the payment was undone because the mint could not happen), or review (the
 * provider reported a payment that does not match the order: its amount, currency or payments;
 * reservation released, never minted, held for an operator to look at).
 */
export const orderStatus = pgEnum('order_status', [
  'created',
  'authorized',
  'captured',
  'minting',
  'minted',
  'declined',
  'canceled',
  'expired',
  'voided',
  'refunded',
  'review',
]);

/**
 * One purchase of new editions. The reservation is the order itself: while the order holds it
 * (`reserved`), one unit of the blueprint's or pack's quantity_available is taken; releasing sets
 * `reserved` false and gives the unit back in the same transaction.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The client's key for this purchase: a retried create returns the same order. */
    idempotencyKey: text('idempotency_key').notNull(),
    method: orderMethod('method').notNull(),
    itemKind: orderItemKind('item_kind').notNull(),
    /** blueprints.id or blueprint_packs.id. */
    itemId: uuid('item_id').notNull(),
    title: text('title').notNull(),
    storefrontId: uuid('storefront_id').references(() => storefronts.id, { onDelete: 'set null' }),
    /** The price charged, in cents (0 for a free claim). */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('USD'),
    /** The buyer's Flow address the editions are minted to. */
    walletAddress: text('wallet_address').notNull(),
    /**
     * The client address the order was placed from (the holds rule counts an address's unpaid
     * holds of an item, whatever account they were placed with); null for orders older than it.
     */
    clientAddress: text('client_address'),
    status: orderStatus('status').notNull().default('created'),
    /** True while the order holds one unit of the item's quantity_available. */
    reserved: boolean('reserved').notNull().default(true),
    /** An unpaid order past this time is expired and its reservation released. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Why the order failed or was undone, as an error code and a message for the buyer. */
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_idempotency_unique').on(t.buyerId, t.idempotencyKey),
    index('orders_buyer_idx').on(t.buyerId, t.createdAt),
    index('orders_item_idx').on(t.itemId, t.status),
    /** Unpaid orders still holding inventory, walked by the expiry sweep. */
    index('orders_reserved_idx').on(t.expiresAt).where(sql`${t.reserved}`),
    /** An address's recent orders of an item (the holds rule). */
    index('orders_client_item_idx').on(t.clientAddress, t.itemId, t.expiresAt),
  ],
);

/**
 * The editions an order mints: one row for a blueprint, one per blueprint of a pack. The serial
 * number is assigned once, when the payment is captured; an edition belongs to one order.
 */
export const orderItems = pgTable(
  'order_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    blueprintId: uuid('blueprint_id')
      .notNull()
      .references(() => blueprints.id, { onDelete: 'cascade' }),
    flowBlueprintId: bigint('flow_blueprint_id', { mode: 'number' }).notNull(),
    serialNumber: bigint('serial_number', { mode: 'number' }),
    /** The minted token id (decimal UInt64) and its mint transaction, once sealed. */
    nftId: text('nft_id'),
    transactionId: text('transaction_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('order_items_order_blueprint_unique').on(t.orderId, t.blueprintId),
    uniqueIndex('order_items_edition_unique').on(t.flowBlueprintId, t.serialNumber),
  ],
);

/**
 * The order timeline the buyer sees: created, authorized, captured, minting, minted, declined,
 * canceled, expired, voided, refunded (and failures such as MINT_SAVE_FAILED). Each milestone is
 * written once per order (the unique key makes replays harmless).
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('order_events_once').on(t.orderId, t.type)],
);
