import { bigint, index, pgEnum, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { offerStatuses } from '#domain/schemas/offers';
import { users } from './accounts';
import { createdAt } from './columns';

export const offerStatus = pgEnum('offer_status', offerStatuses);

/**
 * Offers on NFTs as the chain shows them (VitrineOffers events, read by the record route and the
 * indexer): one row per offer resource, unique by its id and its buyer's address; the transaction
 * that made it and the one that closed it (accepted or canceled) are each unique, so an event read
 * again changes nothing. Amounts in cents.
 */
export const offers = pgTable(
  'offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The offer resource's id in the buyer's offer book (UInt64, decimal). */
    chainOfferId: text('chain_offer_id').notNull(),
    buyerAddress: text('buyer_address').notNull(),
    buyerId: uuid('buyer_id').references(() => users.id, { onDelete: 'set null' }),
    /** The NFT's holder when the offer was made; the seller once accepted. */
    ownerAddress: text('owner_address').notNull(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    nftId: text('nft_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    status: offerStatus('status').notNull().default('open'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    transactionId: text('transaction_id').notNull().unique('offers_transaction_unique'),
    closingTransactionId: text('closing_transaction_id').unique('offers_closing_transaction_unique'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** When the buyer's balance was last compared with the amount (the funding sweep). */
    fundingCheckedAt: timestamp('funding_checked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('offers_chain_unique').on(t.chainOfferId, t.buyerAddress),
    index('offers_nft_idx').on(t.nftId, t.createdAt),
    index('offers_buyer_idx').on(t.buyerId, t.createdAt),
    index('offers_owner_idx').on(t.ownerId, t.createdAt),
    index('offers_standing_idx').on(t.status, t.expiresAt),
  ],
);
