import { sql } from 'drizzle-orm';
import {
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
import { emailStatuses, kycStatuses, roles, userStatuses } from '#domain/enums';
import { createdAt } from './columns';

/** Account tables. Times are timestamptz, written from the app clock. */

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
    /** Email me when an item I saved drops in price or goes on sale (the in-app notice comes in any case). */
    favoriteEmails: boolean('favorite_emails').notNull().default(true),
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
 * Login throttles, one row per key (server/auth/login-limit.ts): `device:<id>` counts the failures
 * of one device cookie, `account:<email>` those of untrusted clients on one account and the time
 * before which their next attempt is refused, `pair:<address> <email>` those of one address on one
 * account, and `address:<address>` the accounts one address has failed against and the time before
 * which a paced address may try again. A row is forgotten FORGET_MS after it last grew (updated_at)
 * and then pruned.
 */
export const loginThrottles = pgTable(
  'login_throttles',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull().default(0),
    nextAllowedAt: timestamp('next_allowed_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('login_throttles_updated_idx').on(t.updatedAt)],
);

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

export const emailStatus = pgEnum('email_status', emailStatuses);

/** What the relay answered when it accepted an email: its reply line and the recipients it took or refused. */
export interface RelayAnswer {
  response: string;
  accepted: string[];
  rejected: string[];
}

/**
 * Emails written by the product, one row per message, in the transaction of what they tell (with
 * their delivery job, server/outbox.ts); server/mail/delivery.ts hands them to the SMTP relay. The
 * row is the message: a retry or a resend sends these very parts, with the row id as Message-ID.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    /** The plain-text part. */
    text: text('text').notNull(),
    /** The HTML part (absent on rows written before emails had one). */
    html: text('html'),
    /** Headers besides the usual ones (List-Unsubscribe). */
    headers: jsonb('headers').$type<Record<string, string>>(),
    /** The message's call-to-action link, if any. */
    link: text('link'),
    createdAt: createdAt(),
    status: emailStatus('status').notNull().default('queued'),
    /** Attempts to hand it to the relay so far. */
    attempts: integer('attempts').notNull().default(0),
    /** When the last attempt began. */
    attemptedAt: timestamp('attempted_at', { withTimezone: true }),
    /** When the next attempt is due after a temporary failure. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** Attempts stop here: 24 hours after the row was written or an admin resent it. */
    deliverBy: timestamp('deliver_by', { withTimezone: true }),
    /** When the relay accepted it. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    relayAnswer: jsonb('relay_answer').$type<RelayAnswer>(),
    /** Why the last attempt failed (the relay's reply, or the connection's error). */
    lastError: text('last_error'),
  },
  (t) => [index('outbox_created_idx').on(t.createdAt), index('outbox_status_idx').on(t.status, t.createdAt)],
);
