import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { orderItemKind, orders } from './orders';

/**
 * The rails' payment records, one per order: card, crypto, FUSD balance, on-ramp and NFM charges.
 */

/**
 * Card charges at the card provider, with the provider's charge statuses: Pending, Authorized,
 * Card Verified, Declined, Captured, Voided, Refunded, Canceled, Expired, and the mint statuses
 * MINTING, MINTED, MINT_SAVE_FAILED, NFT_SYNC_FAILED. One per order.
 */
export const cardCharges = pgTable(
  'card_charges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' })
      .unique('card_charges_order_unique'),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The provider's payment (pay_…), known once the payment request was answered. */
    paymentId: text('payment_id').unique('card_charges_payment_unique'),
    /** The 3-D Secure session (sid_…) the buyer came back with. */
    sessionId: text('session_id'),
    status: text('status').notNull().default('Pending'),
    /** Where the buyer completes 3-D Secure, while the payment waits for it. */
    redirectUrl: text('redirect_url'),
    billingInfoId: uuid('billing_info_id'),
    last4: text('last4'),
    scheme: text('scheme'),
    responseCode: text('response_code'),
    responseSummary: text('response_summary'),
    /**
     * A new card the buyer asked to keep (billingInfo.save): its billing details, saved as a card
     * (billing_infos) with the payment's card source once the provider approves the payment.
     */
    saveCard: jsonb('save_card').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('card_charges_buyer_idx').on(t.buyerId, t.createdAt)],
);

export const coinbaseChargeType = pgEnum('coinbase_charge_type', ['directPurchase', 'topup']);

/**
 * Crypto charges at the crypto provider (Coinbase Commerce's hosted charges), with the crypto
 * charge statuses: NEW, PENDING, COMPLETED, UNRESOLVED, RESOLVED, EXPIRED, CANCELED, then the mint statuses
 * MINTING, MINTED, MINT_SAVE_FAILED, NFT_SYNC_FAILED, or for a top-up (and a purchase paid for an
 * edition that could not be minted) SEND_FUSD_SUCCEEDED / SEND_FUSD_FAILED. A direct purchase has
 * its order; a top-up has its amount and sends that much FUSD to the wallet once paid.
 */
export const coinbaseCharges = pgTable(
  'coinbase_charges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The client's key for this charge: a retried create returns the same charge. */
    idempotencyKey: text('idempotency_key').notNull(),
    type: coinbaseChargeType('type').notNull(),
    orderId: uuid('order_id')
      .references(() => orders.id, { onDelete: 'cascade' })
      .unique('coinbase_charges_order_unique'),
    /** Cents: the price of the order, or the top-up asked for. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** The Flow address FUSD is sent to (a top-up, or a refund of a paid order). */
    walletAddress: text('wallet_address').notNull(),
    /** The provider's charge (UUID) and code, and its hosted page, once created there. */
    providerChargeId: text('provider_charge_id').unique('coinbase_charges_provider_unique'),
    code: text('code'),
    hostedUrl: text('hosted_url'),
    status: text('status').notNull().default('NEW'),
    /** UNRESOLVED's reason (UNDERPAID, OVERPAID, DELAYED, MULTIPLE, MANUAL, OTHER). */
    context: text('context'),
    /** Cents received so far. */
    paid: bigint('paid', { mode: 'number' }).notNull().default(0),
    /** The FUSD transfer to the wallet (top-up or refund), once sealed. */
    fusdTransactionId: text('fusd_transaction_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('coinbase_charges_idempotency_unique').on(t.buyerId, t.idempotencyKey),
    index('coinbase_charges_buyer_idx').on(t.buyerId, t.createdAt),
  ],
);

/**
 * FUSD payments made on chain for orders paid with the stablecoin balance (order method fusd): one
 * row per VitrineCheckout.Paid event, unique by its transaction and event index, so the event read
 * twice (the buyer's report and the indexer) is applied once. The payment that covers a waiting
 * order is `accepted` (at most one per order); it then follows the order's minting (PAID, MINTING,
 * MINTED, MINT_SAVE_FAILED, NFT_SYNC_FAILED). Any other payment (short of the price, for an ended,
 * unknown or already paid order), and an accepted one whose edition could not be minted, is sent
 * back to `refundTo` from the treasury (REFUND_PENDING, then SEND_FUSD_SUCCEEDED or SEND_FUSD_FAILED).
 */
export const fusdPayments = pgTable(
  'fusd_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionId: text('transaction_id').notNull(),
    eventIndex: integer('event_index').notNull(),
    /** The order id the payment names, as sent (it may name no order). */
    orderRef: text('order_ref').notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    /** The FUSD paid, exactly (UFix64 text), and in whole cents (rounded down). */
    amountFusd: text('amount_fusd').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** Where a refund goes: the payer's address. */
    refundTo: text('refund_to').notNull(),
    accepted: boolean('accepted').notNull().default(false),
    status: text('status').notNull(),
    /** The treasury's refund transfer, once sent. */
    refundTransactionId: text('refund_transaction_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('fusd_payments_event_unique').on(t.transactionId, t.eventIndex),
    uniqueIndex('fusd_payments_accepted_unique').on(t.orderId).where(sql`${t.accepted}`),
    index('fusd_payments_order_idx').on(t.orderId),
  ],
);

/**
 * On-ramp charges (Wert's card-to-crypto widget, with its order statuses): one per order of
 * method `wert`. The charge's id is the widget's `click_id`; `signed_data` holds the smart-contract
 * options signed for the widget. `status` is text (no check: domain/schemas/wert.ts lists the
 * statuses). Statuses only move forward: created → the browser's reports paymentStarted →
 * transferStarted → the provider's payment_started → transfer_started → order_complete (then the
 * mint statuses MINTING, MINTED, MINT_SAVE_FAILED, NFT_SYNC_FAILED) or order_failed /
 * order_canceled / tx_smart_contract_failed (then failover_complete or failover_cancelled); ours:
 * canceled, expired; a payment given back as FUSD: SEND_FUSD_SUCCEEDED / SEND_FUSD_FAILED. The
 * provider's order is unique: one provider order settles one charge, once.
 */
export const wertCharges = pgTable(
  'wert_charges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The client's key for this purchase: a retried create returns the same charge. */
    idempotencyKey: text('idempotency_key').notNull(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' })
      .unique('wert_charges_order_unique'),
    /** Cents: the order's price. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** The buyer's Flow wallet: the recipient, and where a payment that goes back is sent. */
    walletAddress: text('wallet_address').notNull(),
    status: text('status').notNull().default('created'),
    /** The widget options signed with the partner key (address, commodity, …, signature). */
    signedData: jsonb('signed_data').$type<Record<string, string | number>>().notNull(),
    /** The provider's order (a ULID), once a payment started, and its transaction to the treasury. */
    providerOrderId: text('provider_order_id').unique('wert_charges_provider_order_unique'),
    txId: text('tx_id'),
    /** The FUSD transfer that gave a payment back, once sent. */
    fusdTransactionId: text('fusd_transaction_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('wert_charges_idempotency_unique').on(t.buyerId, t.idempotencyKey),
    index('wert_charges_buyer_idx').on(t.buyerId, t.createdAt),
  ],
);

/**
 * New editions paid in NFM (the utility token) from a browser wallet: the amount due in the token's
 * smallest unit, the paying address and, once reported, the transfers read from the EVM chain.
 * A buyer has at most one active charge (created or signed) per address.
 */
export const tokenCharges = pgTable(
  'token_charges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    /** Null for a lowFunds charge: no edition is held for a wallet that cannot pay. */
    orderId: uuid('order_id')
      .references(() => orders.id, { onDelete: 'cascade' })
      .unique('token_charges_order_unique'),
    itemKind: orderItemKind('item_kind').notNull(),
    itemId: uuid('item_id').notNull(),
    /** The paying address, checksummed. */
    ethAddress: text('eth_address').notNull(),
    toCurrency: text('to_currency').notNull(),
    /** The price in cents, and the NFM due for it (smallest unit, as text: up to 78 digits). */
    tokenPrice: bigint('token_price', { mode: 'number' }).notNull(),
    tokenAmount: text('token_amount').notNull(),
    status: text('status').notNull(),
    signature: text('signature'),
    /**
     * The transfer that gives received NFM back (an order that ended unpaid or could not be
     * minted): signed and stored before it is broadcast, so a retry re-sends the same transaction.
     */
    refundTransaction: text('refund_transaction'),
    refundHash: text('refund_hash'),
    /**
     * The first block the charge's transfer can be in (the one after the latest when it was
     * created): the server looks for an unreported transfer from there (null for older charges).
     */
    fromBlock: bigint('from_block', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('token_charges_idempotency_unique').on(t.buyerId, t.idempotencyKey),
    index('token_charges_buyer_idx').on(t.buyerId, t.createdAt),
  ],
);

/** Transfers reported for token charges: a transaction pays at most one charge, once. */
export const tokenTransactions = pgTable('token_transactions', {
  hash: text('hash').primaryKey(),
  chargeId: uuid('charge_id')
    .notNull()
    .references(() => tokenCharges.id, { onDelete: 'cascade' }),
  /** The NFM it carried from the charge's address to the platform's (smallest unit). */
  value: text('value').notNull(),
  accepted: boolean('accepted').notNull(),
  createdAt: createdAt(),
});
