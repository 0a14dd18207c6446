import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { desc, eq } from 'drizzle-orm';
import type { Clock, Log } from './clock';
import type { Config } from './config';
import type { Database } from './db';
import { outbox } from './db/schema';

/**
 * Outgoing email. Messages are kept in the outbox table and written as .eml files to
 * `<dataDir>/outbox/`; no SMTP delivery yet.
 */

export interface Email {
  to: string;
  subject: string;
  text: string;
  link?: string;
}

export type OutboxMessage = typeof outbox.$inferSelect;

export interface Outbox {
  send(email: Email): Promise<void>;
  /** Newest first. */
  list(filter: { to?: string; limit: number }): Promise<OutboxMessage[]>;
}

function eml(message: OutboxMessage, from: string): string {
  return [
    `From: ${from}`,
    `To: ${message.to}`,
    `Subject: ${message.subject}`,
    `Date: ${message.createdAt.toUTCString()}`,
    `Message-ID: <${message.id}@vitrine>`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    message.text,
  ].join('\r\n');
}

export function createOutbox(
  db: Database,
  config: Pick<Config, 'dataDir' | 'publicUrl'>,
  clock: Clock,
  log: Log,
): Outbox {
  const dir = join(config.dataDir, 'outbox');
  const from = `Vitrine <no-reply@${new URL(config.publicUrl).hostname}>`;
  return {
    async send(email) {
      const [message] = await db
        .insert(outbox)
        .values({ ...email, createdAt: clock() })
        .returning();
      try {
        await mkdir(dir, { recursive: true });
        const stamp = message!.createdAt.toISOString().replace(/[:.]/g, '-');
        await writeFile(join(dir, `${stamp}-${message!.id}.eml`), eml(message!, from));
      } catch (err) {
        // The table row is the record; a failed file copy must not fail the request.
        log.error('Could not write the outbox file', err);
      }
    },
    list({ to, limit }) {
      return db
        .select()
        .from(outbox)
        .where(to ? eq(outbox.to, to) : undefined)
        .orderBy(desc(outbox.createdAt))
        .limit(limit);
    },
  };
}
