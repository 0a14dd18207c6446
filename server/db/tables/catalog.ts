import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  blueprintStates,
  blueprintStatuses,
  blueprintTypes,
  packStates,
  packTypes,
  payoutStates,
  rarityLevels,
  reportReasons,
  reportStatuses,
  storefrontCategories,
  storefrontThemes,
} from '#domain/enums';
import { users } from './accounts';
import { mintStatus } from './chain';
import { createdAt } from './columns';

/**
 * Catalog tables: storefronts, blueprints and packs, storefront reports, publishing jobs and payout
 * requests.
 */

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
    // The storefronts sitemap (server/seo/sitemaps.ts): the enabled ones in id order, read from the index alone.
    index('storefronts_sitemap_idx')
      .on(t.id, t.vanityUrl, t.updatedAt)
      .where(sql.raw('"storefronts"."enabled"')),
    // Searches read it far more often than storefronts change: entries go straight into the index
    // instead of a pending list that every search would scan until a vacuum merges it.
    index('storefronts_name_trgm_idx')
      .using('gin', sql`lower(${t.name}) gin_trgm_ops`)
      .with({ fastupdate: false }),
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
  (t) => [
    index('blueprint_packs_storefront_idx').on(t.storefrontId),
    // The items sitemap (server/seo/sitemaps.ts): visible packs past their draft, in id order.
    index('blueprint_packs_sitemap_idx')
      .on(t.id, t.createdAt, t.storefrontId)
      .where(sql.raw(`"blueprint_packs"."visible" and "blueprint_packs"."state" <> 'created'`)),
  ],
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
    /**
     * The Trending sort's key, kept by the stats refresh (server/stats/refresh.ts): sales in the last
     * 24 h × 10^12 + their volume in cents (capped below 10^12), so more sales rank first, then more
     * volume. 0 without a sale in the last 24 h.
     */
    trending: bigint('trending', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('blueprints_flow_id_unique').on(t.flowBlueprintId),
    index('blueprints_storefront_idx').on(t.storefrontId, t.createdAt),
    index('blueprints_pack_idx').on(t.blueprintPackId),
    // The marketplace: what visitors see (MARKET_WHERE), walked in each sort order.
    ...(['price', 'quantity', 'created_at', 'trending'] as const).map((column) =>
      index(`blueprints_market_${column}_idx`)
        .on(sql.raw(`"${column}"`), t.id)
        .where(sql.raw(MARKET_WHERE)),
    ),
    // The items sitemap (server/seo/sitemaps.ts): what visitors see, in id order, read from the index alone.
    index('blueprints_sitemap_idx').on(t.id, t.updatedAt).where(sql.raw(MARKET_WHERE)),
    index('blueprints_market_category_idx')
      .on(t.storefrontCategory, t.price, t.id)
      .where(sql.raw(MARKET_WHERE)),
  ],
);

/**
 * The columns of a blueprint that marketplace searches filter and sort on, as the search tables copy
 * them (blueprint_search, blueprint_search_words): each table gets its own column builders.
 */
const searchColumns = () => ({
  price: bigint('price', { mode: 'number' }).notNull(),
  quantity: integer('quantity').notNull(),
  state: blueprintState('state').notNull(),
  storefrontCategory: storefrontCategory('storefront_category'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * The marketplace's title search: one narrow row per blueprint a visitor may see (MARKET_WHERE), with
 * its title in lower case and the columns the marketplace filters and sorts on. A trigram search
 * rechecks every candidate row it finds; here a row is about a fifth of a blueprint's, so the
 * candidates of a common word sit on a few hundred pages instead of nearly every page of blueprints.
 * A trigger on blueprints keeps the rows (migration 0024): a blueprint that stops matching
 * MARKET_WHERE loses its row, one that starts matching gets it.
 */
export const blueprintSearch = pgTable(
  'blueprint_search',
  {
    id: uuid('id')
      .primaryKey()
      .references(() => blueprints.id, { onDelete: 'cascade' }),
    /** lower(blueprints.title) */
    title: text('title').notNull(),
    ...searchColumns(),
  },
  (t) => [
    // The title's trigrams and the category in one index (btree_gin): a search in some categories
    // reads only the rows that have both. Written when a blueprint is listed, priced or hidden, read
    // by every search: entries go straight in, with no pending list for each search to scan.
    index('blueprint_search_title_category_idx')
      .using('gin', sql`${t.title} gin_trgm_ops`, t.storefrontCategory)
      .with({ fastupdate: false }),
  ],
);

/**
 * The marketplace's word search: a search row's words (what lies between ASCII whitespace in its
 * lower-case title), one row each, with the columns the marketplace filters and sorts on. A title
 * contains a text without whitespace exactly when one of its words does; so such a search looks up
 * the vocabulary's words that contain it (blueprintWords), then reads the rows of those words in
 * its price range from one index alone, where a trigram search fetches and rechecks every candidate
 * blueprint. A trigger on blueprint_search keeps the rows (migration 0025); deleting a search row
 * deletes its words' rows.
 */
export const blueprintSearchWords = pgTable(
  'blueprint_search_words',
  {
    word: text('word').notNull(),
    id: uuid('id')
      .notNull()
      .references(() => blueprintSearch.id, { onDelete: 'cascade' }),
    ...searchColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.word] }),
    // Every column a search filters on or sorts by, after the word and the price range: a search
    // reads this index and never the table (an index-only scan).
    index('blueprint_search_words_search_idx').on(
      t.word,
      t.price,
      t.state,
      t.storefrontCategory,
      t.createdAt,
      t.quantity,
      t.id,
    ),
  ],
);

/**
 * Every word a search row's title has had (see blueprintSearchWords), with the index of its
 * trigrams: a search finds the few words that contain its text here. A word no title has any more
 * stays; it matches no search row.
 */
export const blueprintWords = pgTable('blueprint_words', { word: text('word').primaryKey() }, (t) => [
  index('blueprint_words_word_trgm_idx')
    .using('gin', sql`${t.word} gin_trgm_ops`)
    .with({ fastupdate: false }),
]);

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
