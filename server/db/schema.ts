import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
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
import {
  blueprintStates,
  blueprintStatuses,
  blueprintTypes,
  kycStatuses,
  packStates,
  packTypes,
  payoutStates,
  rarityLevels,
  reportReasons,
  reportStatuses,
  roles,
  storefrontCategories,
  storefrontThemes,
  userStatuses,
} from '#domain/enums';

/** Account tables. Times are timestamptz, written from the app clock. */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const role = pgEnum('role', roles);
export const userStatus = pgEnum('user_status', userStatuses);
export const kycStatus = pgEnum('kyc_status', kycStatuses);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased (the Email schema lower-cases). */
    email: text('email').notNull().unique('users_email_unique'),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull().default(''),
    walletAddress: text('wallet_address').unique('users_wallet_address_unique'),
    cid: text('cid'),
    ethAddress: text('eth_address'),
    rewardCode: text('reward_code'),
    collectorScore: integer('collector_score').notNull().default(0),
    viewedCollectorScore: integer('viewed_collector_score').notNull().default(0),
    level: integer('level').notNull().default(1),
    avatarUrl: text('avatar_url'),
    /** Email me when one of my items sells (the in-app notice comes in any case). */
    saleEmails: boolean('sale_emails').notNull().default(true),
    role: role('role').notNull().default('creator'),
    status: userStatus('status').notNull().default('active'),
    /** Bumped on every password change; session tokens carrying an older version are refused. */
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_username_unique').on(sql`lower(${t.username})`)],
);

/** The user's identity verification session (one per user). */
export const kycVerifications = pgTable(
  'kyc_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id'),
    url: text('url'),
    status: kycStatus('status').notNull().default('unknown'),
    code: text('code'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    reason: text('reason'),
    reasonCode: text('reason_code'),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
    /**
     * When the provider decided the current session (its webhook's decisionTime): a decision older
     * than this one, delivered late or replayed, changes nothing.
     */
    decisionTime: timestamp('decision_time', { withTimezone: true }),
  },
  (t) => [uniqueIndex('kyc_verifications_session_unique').on(t.sessionId)],
);

/** Single-use password reset tokens; only the SHA-256 of the token is stored. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('password_resets_user_idx').on(t.userId, t.createdAt)],
);

/**
 * Login throttles, one row per key: `address:<client address>` counts failed logins of one client
 * in a fixed window (a hard limit), `email:<email>` counts an account's recent failures and holds
 * the time before which the next attempt for it is refused (a growing delay, never a lockout).
 * Attempts are counted before the password is checked, in one atomic upsert, so a burst cannot
 * overshoot; a successful login gives its attempt back.
 */
export const loginThrottles = pgTable('login_throttles', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  nextAllowedAt: timestamp('next_allowed_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * Login sessions. A session token (short-lived JWT) names its session; logging out revokes the
 * session on the server, so its tokens stop working at once. The refresh token, kept in an
 * HTTP-only cookie, is stored only as a SHA-256 hash and is replaced on every use; presenting a
 * replaced one revokes the session (a stolen copy was used).
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refreshHash: text('refresh_hash').notNull().unique('sessions_refresh_unique'),
    /** The refresh token this one replaced: accepted again only briefly (two tabs refreshing at once). */
    previousHash: text('previous_hash'),
    createdAt: createdAt(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * Email changes waiting for confirmation: the new address receives a single-use link (only the
 * SHA-256 of its token is stored); the email changes when the link is opened.
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull().unique('email_changes_token_unique'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('email_changes_user_idx').on(t.userId, t.createdAt)],
);

/** Emails written by the product; also saved as files in `<dataDir>/outbox`. */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    /** The message's call-to-action link, if any. */
    link: text('link'),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_created_idx').on(t.createdAt)],
);

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
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    index('wallet_nonces_expires_idx').on(t.expiresAt),
    index('wallet_nonces_address_idx').on(t.address, t.createdAt),
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
    index('nft_purchases_buyer_idx').on(t.buyerId, t.purchasedOn),
  ],
);

/** How far the chain event indexer got, one row per event stream (last indexed block height). */
export const chainCursor = pgTable('chain_cursor', {
  stream: text('stream').primaryKey(),
  height: bigint('height', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const storefrontCategory = pgEnum('storefront_category', storefrontCategories);
export const storefrontTheme = pgEnum('storefront_theme', storefrontThemes);
export const blueprintState = pgEnum('blueprint_state', blueprintStates);
export const packState = pgEnum('pack_state', packStates);
export const blueprintStatus = pgEnum('blueprint_status', blueprintStatuses);
export const blueprintType = pgEnum('blueprint_type', blueprintTypes);
export const packType = pgEnum('pack_type', packTypes);
export const rarityLevel = pgEnum('rarity_level', rarityLevels);
export const reportReason = pgEnum('report_reason', reportReasons);
export const reportStatus = pgEnum('report_status', reportStatuses);

/** Creators' storefronts: one per user, unique names and vanity URLs. */
export const storefronts = pgTable(
  'storefronts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' })
      .unique('storefronts_owner_unique'),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    category: storefrontCategory('category'),
    theme: storefrontTheme('theme').notNull().default('light'),
    font: text('font'),
    logoUrl: text('logo_url'),
    bannerUrl: text('banner_url'),
    contactEmail: text('contact_email'),
    vanityUrl: text('vanity_url').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Suspended by an admin: disabled, and its owner cannot enable it until the suspension is lifted. */
    suspended: boolean('suspended').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('storefronts_name_unique').on(sql`lower(${t.name})`),
    uniqueIndex('storefronts_vanity_unique').on(sql`lower(${t.vanityUrl})`),
    index('storefronts_created_idx').on(t.createdAt),
    index('storefronts_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
  ],
);

/** Packs of blueprints, sold as one item; prices in cents. */
export const blueprintPacks = pgTable(
  'blueprint_packs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    storefrontId: uuid('storefront_id')
      .notNull()
      .references(() => storefronts.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    coverImageUrl: text('cover_image_url'),
    price: bigint('price', { mode: 'number' }).notNull(),
    quantity: integer('quantity').notNull(),
    quantityAvailable: integer('quantity_available').notNull(),
    royaltyPercent: doublePrecision('royalty_percent').notNull().default(0),
    totalFeePercent: doublePrecision('total_fee_percent').notNull().default(0),
    rarityLevel: rarityLevel('rarity_level').notNull().default('common'),
    state: packState('state').notNull().default('created'),
    type: packType('type').notNull().default('standalone'),
    availableTime: timestamp('available_time', { withTimezone: true }),
    drop: boolean('drop').notNull().default(false),
    visible: boolean('visible').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index('blueprint_packs_storefront_idx').on(t.storefrontId)],
);

/**
 * What a visitor may see of blueprints: visible, of an enabled storefront, in a public state. The
 * marketplace indexes are partial on exactly this text, and the public queries use it verbatim.
 */
export const MARKET_WHERE = `"blueprints"."visible" and "blueprints"."storefront_enabled" and "blueprints"."state" in ('available', 'active', 'printed', 'soldOut')`;

/**
 * NFT templates (blueprints): a price (cents) and an edition count. `flowBlueprintId` is the
 * blueprint's number on chain (VitrineNFT.blueprintId of every NFT minted from it).
 */
export const blueprints = pgTable(
  'blueprints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    flowBlueprintId: bigint('flow_blueprint_id', { mode: 'number' })
      .notNull()
      .generatedAlwaysAsIdentity({ startWith: 1000 }),
    storefrontId: uuid('storefront_id')
      .notNull()
      .references(() => storefronts.id, { onDelete: 'cascade' }),
    blueprintPackId: uuid('blueprint_pack_id').references(() => blueprintPacks.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    assetUrl: text('asset_url'),
    previewImageUrl: text('preview_image_url'),
    quantity: integer('quantity').notNull(),
    quantityAvailable: integer('quantity_available').notNull(),
    price: bigint('price', { mode: 'number' }).notNull(),
    royaltyPercent: doublePrecision('royalty_percent').notNull().default(0),
    totalFeePercent: doublePrecision('total_fee_percent').notNull().default(0),
    rarityLevel: rarityLevel('rarity_level').notNull().default('common'),
    state: blueprintState('state').notNull().default('created'),
    status: blueprintStatus('status'),
    visible: boolean('visible').notNull().default(true),
    availableTime: timestamp('available_time', { withTimezone: true }),
    drop: boolean('drop').notNull().default(false),
    type: blueprintType('type').notNull().default('standalone'),
    /** Copies of the storefront's category and enabled flag, kept by triggers (migration 0005). */
    storefrontCategory: storefrontCategory('storefront_category'),
    storefrontEnabled: boolean('storefront_enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('blueprints_flow_id_unique').on(t.flowBlueprintId),
    index('blueprints_storefront_idx').on(t.storefrontId, t.createdAt),
    index('blueprints_pack_idx').on(t.blueprintPackId),
    // The marketplace: what visitors see (MARKET_WHERE), walked in each sort order.
    ...(['price', 'quantity', 'created_at'] as const).map((column) =>
      index(`blueprints_market_${column}_idx`)
        .on(sql.raw(`"${column}"`), t.id)
        .where(sql.raw(MARKET_WHERE)),
    ),
    index('blueprints_market_category_idx')
      .on(t.storefrontCategory, t.price, t.id)
      .where(sql.raw(MARKET_WHERE)),
    index('blueprints_title_trgm_idx').using('gin', sql`lower(${t.title}) gin_trgm_ops`),
  ],
);

/** Reports of storefronts by users: one per reporter and storefront, resolved or dismissed by admins. */
export const storefrontReports = pgTable(
  'storefront_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    storefrontId: uuid('storefront_id')
      .notNull()
      .references(() => storefronts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    reason: reportReason('reason').notNull(),
    description: text('description').notNull().default(''),
    status: reportStatus('status').notNull().default('created'),
    createdAt: createdAt(),
  },
  /** A user reports a storefront once. */
  (t) => [uniqueIndex('storefront_reports_once_per_user').on(t.storefrontId, t.userId)],
);

/**
 * The durable job of publishing: a blueprint whose status became readyToSell is
 * registered for sale on chain (VitrineBlueprints.register), then moves to active. One row per
 * blueprint; server/blueprints/publisher.ts resumes rows that are not sealed after a restart. A
 * canceled sale is closed on chain by the same job.
 */
export const blueprintRegistrations = pgTable('blueprint_registrations', {
  blueprintId: uuid('blueprint_id')
    .primaryKey()
    .references(() => blueprints.id, { onDelete: 'cascade' }),
  flowBlueprintId: bigint('flow_blueprint_id', { mode: 'number' }).notNull(),
  status: mintStatus('status').notNull().default('pending'),
  /** The register transaction, known from signing on. */
  transactionId: text('transaction_id'),
  error: text('error'),
  attempts: integer('attempts').notNull().default(0),
  /**
   * Closing on chain after the owner canceled the sale (VitrineBlueprints.close): null while open,
   * then pending, submitted (the transaction known) and sealed.
   */
  closeStatus: mintStatus('close_status'),
  closeTransactionId: text('close_transaction_id'),
  /** The server working on this row now, until `lease_until` (renewed while it works). */
  lockedBy: text('locked_by'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const payoutState = pgEnum('payout_state', payoutStates);

/** Creators' requests to be paid their sales in USD; amounts in cents. */
export const payoutRequests = pgTable(
  'payout_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    storefrontId: uuid('storefront_id')
      .notNull()
      .references(() => storefronts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    state: payoutState('state').notNull().default('created'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payout_requests_storefront_idx').on(t.storefrontId, t.createdAt),
    // Only one open (created or pending) request per storefront, even under concurrent requests.
    uniqueIndex('payout_requests_one_open')
      .on(t.storefrontId)
      .where(sql`${t.state} in ('created', 'pending')`),
  ],
);

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
 * voided / refunded (the payment was undone because the mint could not happen).
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

/** Provider webhook deliveries already handled, by the provider's event id (evt_…). */
/**
 * In-app notices (the dashboard's notifications): for now, "your item sold" to the storefront's
 * owner, one per sold edition (kind sale, subject the NFT id), written in the transaction that
 * records the sale, so a retried fulfilment adds none.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    title: text('title').notNull(),
    serialNumber: bigint('serial_number', { mode: 'number' }),
    /** The price paid and the owner's net after royalty and platform fee, in cents. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    net: bigint('net', { mode: 'number' }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notifications_subject_unique').on(t.userId, t.kind, t.subject),
    index('notifications_user_idx').on(t.userId, t.createdAt),
  ],
);

export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  receivedAt: createdAt(),
});

export const jobStatus = pgEnum('job_status', ['queued', 'running', 'done', 'failed']);

/**
 * Durable background work (fulfilling an order: mint, or undo the payment). A worker claims a due
 * job with FOR UPDATE SKIP LOCKED and holds it for a lease; a job whose lease ran out (its worker
 * died) is claimed again. One job per (kind, key).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    status: jobStatus('status').notNull().default('queued'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('jobs_kind_key_unique').on(t.kind, t.key),
    index('jobs_due_idx').on(t.runAt).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/** Raw bytes (bytea), read and written as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Image-optimization jobs (POST /image-jobs): the uploaded file waits here, not in one server's
 * memory, until a worker of any server claims the job's `jobs` row (kind image.optimize, key = id)
 * and stores the result; the input is dropped once the job is finished. A job is forgotten 10
 * minutes after its last change.
 */
export const imageJobs = pgTable(
  'image_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The upload grant the result is stored under: object key, mime type, asset kind. */
    objectKey: text('object_key').notNull(),
    mimeType: text('mime_type').notNull(),
    assetKind: text('asset_kind').notNull(),
    quality: integer('quality').notNull(),
    input: bytea('input'),
    status: text('status').$type<'pending' | 'complete' | 'fail'>().notNull().default('pending'),
    url: text('url'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('image_jobs_pending_idx').on(t.userId).where(sql`${t.status} = 'pending'`)],
);

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
