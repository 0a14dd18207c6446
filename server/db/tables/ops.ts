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
 * Work the server does beside requests: in-app notices, handled webhook deliveries, the durable
 * jobs and image jobs.
 */

/**
 * In-app notices (the dashboard's notifications), one per (user, kind, subject): "your item sold"
 * to the storefront's owner, one per sold edition (kind sale, subject the NFT id), written in the
 * transaction that records the sale, so a retried fulfilment adds none; and, to each user who saved
 * an item, its price drop (kind priceDrop, subject the resale listing) or its sale opening (kind
 * saleOpen, subject the blueprint), so a job run twice adds none.
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
    /**
     * In cents: a sale's price paid and the owner's net after royalty and platform fee; a saved
     * item's new lowest price (kind priceDrop, with the lowest before it as `net`) or its price as
     * its sale opens (kind saleOpen, no `net`).
     */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    net: bigint('net', { mode: 'number' }),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notifications_subject_unique').on(t.userId, t.kind, t.subject),
    index('notifications_user_idx').on(t.userId, t.createdAt),
  ],
);

/** Provider webhook deliveries already handled, by the provider's event id (evt_…). */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  receivedAt: createdAt(),
});

export const jobStatus = pgEnum('job_status', ['queued', 'running', 'done', 'failed']);

/** The kind of an image-optimization job (server/images/jobs.ts). */
export const IMAGE_JOB = 'image.optimize';
/** The kind of an email's delivery job, keyed by its outbox row (server/mail/delivery.ts). */
export const EMAIL_JOB = 'email.deliver';

/**
 * The lanes of the job queue: `media` is image work (IMAGE_JOB), `mail` is email delivery
 * (EMAIL_JOB), `money` is every other kind (capture, mint, refund, FUSD transfer, top-up). A worker
 * runs each lane in slots of its own, so neither image work nor a slow mail relay ever takes a slot
 * money work needs (server/jobs.ts).
 */
export const jobLanes = ['money', 'media', 'mail'] as const;
export type JobLane = (typeof jobLanes)[number];

/**
 * Durable background work (fulfilling an order: mint, or undo the payment; optimizing an image). A
 * worker claims a due job of one lane with FOR UPDATE SKIP LOCKED and holds it for a lease; a job
 * whose lease ran out (its worker died) is claimed again. One job per (kind, key).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    /** The job's lane, from its kind: the one place kinds map to lanes. */
    lane: text('lane')
      .$type<JobLane>()
      .notNull()
      .generatedAlwaysAs(
        sql.raw(
          `case kind when '${IMAGE_JOB}' then 'media' when '${EMAIL_JOB}' then 'mail' else 'money' end`,
        ),
      ),
    /** The account the job works for (an image job's uploader): a lane's slots are shared fairly among accounts. */
    accountId: uuid('account_id'),
    status: jobStatus('status').notNull().default('queued'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** The X-Request-Id of the request that queued the job (null: queued by a job or a sweep); its log lines carry it. */
    requestId: text('request_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('jobs_kind_key_unique').on(t.kind, t.key),
    index('jobs_lane_due_idx').on(t.lane, t.runAt).where(sql`${t.status} in ('queued', 'running')`),
    // The fair share's look-ups: an account's running jobs, and when it was last served.
    index('jobs_account_running_idx').on(t.accountId).where(sql`${t.status} = 'running'`),
    index('jobs_account_served_idx').on(t.accountId, t.updatedAt).where(sql`${t.accountId} is not null`),
  ],
);

/**
 * Image-optimization jobs (POST /image-jobs): the job waits here, its uploaded file in the media
 * store (server/images/store.ts, stagedKey), not in one server's memory, until a worker of any
 * server claims the job's `jobs` row (kind image.optimize, key = id) and stores the result; the
 * file is removed once the job is finished. A job is forgotten 10 minutes after its last change.
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
    status: text('status').$type<'pending' | 'complete' | 'fail'>().notNull().default('pending'),
    url: text('url'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('image_jobs_pending_idx').on(t.userId).where(sql`${t.status} = 'pending'`)],
);

/**
 * The back office's audit log: every action an admin takes (blocking a user, suspending a
 * storefront, closing a report, moving a payout request, reopening an identity verification), who
 * took it, on what, and what the thing was before and after. Written in the transaction of the
 * action itself, so an action is never without its record.
 */
export const adminActions = pgTable(
  'admin_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    /** What was done, as `subject.verb` (kyc.reopen, user.block, storefront.suspend, …). */
    action: text('action').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: uuid('subject_id').notNull(),
    /** The fields the action changed, before and after. */
    before: jsonb('before').$type<Record<string, unknown>>().notNull(),
    after: jsonb('after').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('admin_actions_created_idx').on(t.createdAt),
    index('admin_actions_subject_idx').on(t.subjectType, t.subjectId),
  ],
);

/**
 * One row per counted action (a card check, a sign-up, a provider lookup a webhook caused), by the
 * key it is counted under (`card:account:<id>`, `signup:address:<ip>`, …): the rate limits of
 * server/rate-limit.ts count the rows of a key inside their window. Rows older than the longest
 * window are deleted as new ones are counted.
 */
export const rateEvents = pgTable(
  'rate_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_events_key_at_idx').on(t.key, t.at)],
);
