import { sql } from 'drizzle-orm';
import {
  bigint,
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

/**
 * Tables that mirror the chain: mints, wallet nonces, NFTs, their sale listings and purchases, and
 * the indexer's cursor.
 */

export const mintStatus = pgEnum('mint_status', ['pending', 'submitted', 'sealed', 'failed']);

/**
 * NFT mints of the minting service (server/chain/mint.ts), one per purchase key, so that a retried
 * purchase never mints twice. An edition (blueprint id, serial number) belongs to one purchase key.
 */
export const mints = pgTable(
  'mints',
  {
    purchaseKey: text('purchase_key').primaryKey(),
    /** The buyer's Flow address (0x and 16 hex digits). */
    recipient: text('recipient').notNull(),
    blueprintId: bigint('blueprint_id', { mode: 'number' }).notNull(),
    serialNumber: bigint('serial_number', { mode: 'number' }).notNull(),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
    status: mintStatus('status').notNull().default('pending'),
    /** The mint transaction, known from signing on; the last one if there were retries. */
    transactionId: text('transaction_id'),
    /** The VitrineNFT token id (UInt64, decimal), once sealed. */
    nftId: text('nft_id'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mints_edition_unique').on(t.blueprintId, t.serialNumber)],
);

/**
 * Nonces handed to wallets for account proofs (users/wallets/actions/request-account-proof). Each proves one
 * connection: it is consumed by the first verification that names it, and expires.
 */
export const walletNonces = pgTable(
  'wallet_nonces',
  {
    nonce: text('nonce').primaryKey(),
    /** The client address that asked for it (outstanding nonces are capped per address). */
    address: text('address'),
    /** SHA-256 of the session that asked for it, which gets it again while it is fresh (wallet-proof.ts). */
    session: text('session'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    index('wallet_nonces_expires_idx').on(t.expiresAt),
    index('wallet_nonces_address_idx').on(t.address, t.createdAt),
    index('wallet_nonces_session_idx').on(t.session, t.expiresAt),
  ],
);

/** NFT status: minting (not on chain yet), parked (held), forSale (an active listing). */
export const nftStatus = pgEnum('nft_status', ['minting', 'parked', 'forSale']);

/**
 * VitrineNFTs as the chain event indexer (server/chain/indexer.ts) sees them; keyed by the chain's
 * token id (UInt64, decimal).
 */
export const nfts = pgTable(
  'nfts',
  {
    id: text('id').primaryKey(),
    blueprintId: bigint('blueprint_id', { mode: 'number' }).notNull(),
    serialNumber: bigint('serial_number', { mode: 'number' }).notNull(),
    /** The Flow address holding the NFT (0x and 16 hex digits). */
    owner: text('owner').notNull(),
    /**
     * The holder as the chain event indexer last saw it (mints and deposits, in chain order). The
     * indexer repairs `owner` wherever it disagrees.
     */
    chainOwner: text('chain_owner'),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    status: nftStatus('status').notNull().default('parked'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('nfts_owner_idx').on(t.owner),
    /** The rows the indexer must repair: their owner disagrees with the chain. */
    index('nfts_owner_disagrees_idx')
      .on(t.id)
      .where(sql`${t.chainOwner} is not null and ${t.owner} <> ${t.chainOwner}`),
    uniqueIndex('nfts_edition_unique').on(t.blueprintId, t.serialNumber),
  ],
);

export const saleListingStatus = pgEnum('sale_listing_status', ['active', 'completed', 'cancelled']);

/** NFTStorefrontV2 listings of VitrineNFTs (one per listed NFT); prices in FUSD cents. */
export const saleListings = pgTable(
  'sale_listings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The listing resource id on chain (UInt64, decimal). */
    blockchainListingId: text('blockchain_listing_id').notNull().unique('sale_listings_blockchain_unique'),
    seller: text('seller').notNull(),
    nftId: text('nft_id').notNull(),
    price: bigint('price', { mode: 'number' }).notNull(),
    status: saleListingStatus('status').notNull().default('active'),
    /** The buyer's address once a purchase completed the listing. */
    purchasedBy: text('purchased_by'),
    listedOn: timestamp('listed_on', { withTimezone: true }).notNull().defaultNow(),
    completedOn: timestamp('completed_on', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sale_listings_nft_idx').on(t.nftId, t.status)],
);

/** NFT purchases the buyers' clients recorded (nfts/purchases/actions/record), one per transaction. */
export const nftPurchases = pgTable(
  'nft_purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionId: text('transaction_id').notNull().unique('nft_purchases_transaction_unique'),
    buyerId: uuid('buyer_id').references(() => users.id, { onDelete: 'set null' }),
    walletAddress: text('wallet_address').notNull(),
    nftId: text('nft_id').notNull(),
    type: text('type').notNull(),
    blockchainListingId: text('blockchain_listing_id'),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    purchasedOn: timestamp('purchased_on', { withTimezone: true }).notNull().defaultNow(),
    /** The checkout order that minted the NFT (new editions bought or claimed), if any. */
    orderId: uuid('order_id'),
  },
  (t) => [
    index('nft_purchases_nft_idx').on(t.nftId, t.purchasedOn),
    /** The stats refresh's windows (the last 24 h, 7 d) read the recent purchases alone. */
    index('nft_purchases_purchased_on_idx').on(t.purchasedOn),
    index('nft_purchases_buyer_idx').on(t.buyerId, t.purchasedOn),
  ],
);

/** How far the chain event indexer got, one row per event stream (last indexed block height). */
export const chainCursor = pgTable('chain_cursor', {
  stream: text('stream').primaryKey(),
  height: bigint('height', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
