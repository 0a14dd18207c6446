import { eq } from 'drizzle-orm';
import nodemailer, { type SMTPSentMessageInfo } from 'nodemailer';
import type { Log } from '../clock';
import type { Database } from '../db';
import { EMAIL_JOB, outbox } from '../db/schema';
import type { JobHandler } from '../jobs';
import type { EmailDeliveryResult } from '../metrics';
import { DELIVERY_WINDOW_MS, type OutboxMessage } from '../outbox';
import { type MailConfig, mailDomain } from './config';

export { EMAIL_JOB };

/**
 * Email delivery: the handler of EMAIL_JOB (one job per outbox row, keyed by its id) hands the row's
 * message to the SMTP relay (SMTP_URL, or the embedded Mailpit), as written: its Message-ID is
 * `<row id@MAIL_FROM's domain>` and its Date the row's creation, whichever attempt sends it.
 *
 * - An attempt first marks the row `sending` (attempts + 1, attemptedAt), then sends.
 * - Accepted: `sent`, with sentAt and the relay's answer (its reply line, the recipients it accepted
 *   and rejected). A sent row is never sent again, however often its job runs.
 * - Refused for good: a 5xx reply (but to our login: see below) marks it `failed` at once, the reply
 *   as lastError.
 * - A temporary failure (a 4xx reply, a refused or dropped connection, a timeout, DNS, TLS, the relay
 *   refusing our login, which is our settings' fault and not the message's): back to `queued`, with
 *   lastError and nextAttemptAt; the job runs again after EMAIL_BACKOFF_MS (30 s, then doubling, at
 *   most 1 h apart).
 * - The first attempt due once DELIVERY_WINDOW_MS (24 h) have passed since the row was written (or an
 *   admin resent it, deliverBy) marks it `failed` instead of sending.
 *
 * What is guaranteed: every email is handed to the relay until it is accepted, refused for good, or
 * 24 h have passed, and an accepted email is never handed over again. It is handed over twice only
 * when an attempt's outcome was lost: the process stopped (or lost the database) after the relay
 * accepted the message and before `sent` was written. The row is then still `sending`, and the next
 * attempt (once the job's lease runs out) sends it again, the same message with the same Message-ID,
 * by which mail systems drop the duplicate. Delivery is at least once; twice at worst, in that window.
 */

/** The delay after the nth failed attempt: 30 s, 1 min, 2 min … doubling up to 1 h. */
export const EMAIL_BACKOFF_MS = (attempts: number) =>
  Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1));

/** SMTP timeouts: to connect, for the relay's greeting, and for any reply. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export interface EmailDeliveryOptions {
  db: Database;
  mail: Pick<MailConfig, 'smtpUrl' | 'from'>;
  now?: () => Date;
  log?: Log;
  timeouts?: Partial<typeof SMTP_TIMEOUTS>;
  /** Told what each attempt came to (the metrics' email deliveries by result). */
  onResult?: (result: EmailDeliveryResult) => void;
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  message?: string;
}

/** A refusal for good: a 5xx reply to the message or its recipient (not to our login). */
export function permanentFailure(err: unknown): boolean {
  const { code, responseCode } = (err ?? {}) as SmtpError;
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && code !== 'EAUTH';
}

const reasonOf = (err: unknown) => {
  const { code, message } = (err ?? {}) as SmtpError;
  const text = message ?? String(err);
  return (code && !text.includes(code) ? `${text} (${code})` : text).slice(0, 1000);
};

const address = (a: string | { address: string }) => (typeof a === 'string' ? a : a.address);

export function createEmailDelivery(options: EmailDeliveryOptions): JobHandler {
  const { db, mail } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? console;
  if (!mail.smtpUrl) throw new Error('Email delivery needs an SMTP relay');
  const transport = nodemailer.createTransport({ url: mail.smtpUrl, ...SMTP_TIMEOUTS, ...options.timeouts });
  const domain = mailDomain(mail.from);

  const update = (id: string, values: Partial<OutboxMessage>) =>
    db.update(outbox).set(values).where(eq(outbox.id, id));

  return {
    backoffMs: EMAIL_BACKOFF_MS,
    async run(job) {
      const [row] = await db.select().from(outbox).where(eq(outbox.id, job.key));
      if (!row || row.status === 'sent' || row.status === 'failed') return;
      const deliverBy = row.deliverBy ?? new Date(row.createdAt.getTime() + DELIVERY_WINDOW_MS);
      if (now() >= deliverBy) {
        await update(row.id, {
          status: 'failed',
          nextAttemptAt: null,
          lastError: `Not accepted within 24 hours${row.lastError ? `: ${row.lastError}` : ''}`,
        });
        log.error(`email ${row.id}: not accepted within 24 hours; failed`);
        options.onResult?.('failed');
        return;
      }
      if (row.status === 'sending')
        log.error(
          `email ${row.id}: the attempt begun at ${row.attemptedAt?.toISOString()} left no outcome; sending it again with the same Message-ID`,
        );
      await update(row.id, {
        status: 'sending',
        attempts: row.attempts + 1,
        attemptedAt: now(),
        nextAttemptAt: null,
      });
      let info: SMTPSentMessageInfo;
      try {
        info = await transport.sendMail({
          from: mail.from,
          to: row.to,
          subject: row.subject,
          text: row.text,
          html: row.html ?? undefined,
          headers: row.headers ?? undefined,
          messageId: `<${row.id}@${domain}>`,
          date: row.createdAt,
        });
      } catch (err) {
        const reason = reasonOf(err);
        if (permanentFailure(err)) {
          await update(row.id, { status: 'failed', lastError: reason });
          log.error(`email ${row.id}: refused for good: ${reason}`);
          options.onResult?.('failed');
          return;
        }
        await update(row.id, {
          status: 'queued',
          lastError: reason,
          nextAttemptAt: new Date(now().getTime() + EMAIL_BACKOFF_MS(job.attempts)),
        });
        options.onResult?.('retried');
        // The job runs again after EMAIL_BACKOFF_MS.
        throw new Error(`email ${row.id}: ${reason}`);
      }
      await update(row.id, {
        status: 'sent',
        sentAt: now(),
        relayAnswer: {
          response: info.response,
          accepted: info.accepted.map(address),
          rejected: info.rejected.map(address),
        },
        lastError: null,
      });
      options.onResult?.('sent');
    },
  };
}

/**
 * Readiness of the relay: it greets, answers EHLO and takes our login (nodemailer's verify), within
 * SMTP_TIMEOUTS; nothing is sent.
 */
export async function checkRelay(smtpUrl: string): Promise<void> {
  const transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}
