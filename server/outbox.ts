import type { Executor } from './db';
import { EMAIL_JOB, outbox } from './db/schema';
import { enqueueJob } from './jobs';

/**
 * Outgoing email. An email is a row of the outbox table written in the transaction of what it tells
 * (a reset token, an email change, an identity decision, a sale), together with its delivery job
 * (EMAIL_JOB keyed by the row's id: one row, one job), so it exists exactly when its cause commits
 * and is delivered once the job runs (server/mail/delivery.ts). It is tried for DELIVERY_WINDOW_MS.
 * Templates are in server/emails/: the row keeps both rendered parts, so every attempt sends the same
 * message.
 */

export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The call-to-action link, if any. */
  link?: string;
  /** More headers (List-Unsubscribe). */
  headers?: Record<string, string>;
}

export type OutboxMessage = typeof outbox.$inferSelect;

/** How long an email is tried from when it is written (or resent by an admin): 24 hours. */
export const DELIVERY_WINDOW_MS = 24 * 3600_000;

/** Writes the email and its delivery job in the caller's transaction; answers the row's id. */
export async function queueEmail(tx: Executor, email: Email, at: Date): Promise<string> {
  const [row] = await tx
    .insert(outbox)
    .values({ ...email, createdAt: at, deliverBy: new Date(at.getTime() + DELIVERY_WINDOW_MS) })
    .returning({ id: outbox.id });
  await enqueueJob(tx, EMAIL_JOB, row!.id, at);
  return row!.id;
}
