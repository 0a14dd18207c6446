import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../server/chain/emulator';
import { EMAIL_JOB, jobs, outbox } from '../../server/db/schema';
import { passwordResetEmail } from '../../server/emails/password-reset';
import { createJobWorker, enqueueJob, findJob } from '../../server/jobs';
import { createEmailDelivery, EMAIL_BACKOFF_MS } from '../../server/mail/delivery';
import { DELIVERY_WINDOW_MS, queueEmail } from '../../server/outbox';
import { databases, registerAdmin, silentLog, useTestApp } from './support/harness';
import { inbox, waitForEmails } from './support/mailpit';

/**
 * A relay that answers with the replies it is given, over a real SMTP conversation: the greeting,
 * the answer to RCPT TO and to the end of DATA. It counts connections and keeps the messages it
 * accepted.
 */
interface Relay {
  url: string;
  replies: { greeting: string; rcpt: string; data: string; silent: boolean };
  connections: number;
  accepted: string[];
  close(): Promise<void>;
}

async function startRelay(): Promise<Relay> {
  const sockets = new Set<Socket>();
  const relay = {
    replies: {
      greeting: '220 relay.test ESMTP',
      rcpt: '250 2.1.5 Ok',
      data: '250 2.0.0 Ok: queued',
      silent: false,
    },
    connections: 0,
    accepted: [] as string[],
  };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    relay.connections++;
    // A relay that never greets: the client's greeting timeout.
    if (relay.replies.silent) return;
    const say = (line: string) => socket.write(`${line}\r\n`);
    say(relay.replies.greeting);
    if (!relay.replies.greeting.startsWith('2')) return void socket.end();
    let data: string[] | null = null;
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data) {
          if (line !== '.') data.push(line);
          else {
            if (relay.replies.data.startsWith('2')) relay.accepted.push(data.join('\r\n'));
            data = null;
            say(relay.replies.data);
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') say('250 relay.test');
        else if (verb === 'MAIL' || verb === 'RSET') say('250 2.1.0 Ok');
        else if (verb === 'RCPT') say(relay.replies.rcpt);
        else if (verb === 'DATA') {
          data = [];
          say('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') socket.end('221 2.0.0 Bye\r\n');
        else say('502 5.5.2 Error: command not recognized');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return Object.assign(relay, {
    url: `smtp://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}

describe.each(databases)('email delivery on %s', (database) => {
  // The app's own worker delivers nothing here (no relay): each test runs the email job itself.
  const t = useTestApp(database);
  let relay: Relay;
  beforeAll(async () => {
    relay = await startRelay();
  });
  afterAll(() => relay.close());
  // Each test's attempts take its own email: what an earlier test left waiting is put aside.
  afterEach(() =>
    t.database.db
      .update(jobs)
      .set({ status: 'done' })
      .where(and(eq(jobs.kind, EMAIL_JOB), inArray(jobs.status, ['queued', 'running']))),
  );

  const from = 'Vitrine <no-reply@vitrine.test>';
  /** One attempt at the due email job, if any, delivering to `smtpUrl`. */
  const attempt = (smtpUrl: string, timeouts?: { greetingTimeout: number }) =>
    createJobWorker({
      db: t.database.db,
      handlers: {
        [EMAIL_JOB]: createEmailDelivery({
          db: t.database.db,
          mail: { smtpUrl, from },
          now: t.clock.now,
          log: silentLog(t.logged),
          timeouts,
        }),
      },
      now: t.clock.now,
      log: silentLog(t.logged),
    }).runOnce('mail');
  const address = () => `mail-${randomBytes(5).toString('hex')}@example.com`;
  /** A reset email to a new address, written as a route writes it (row and job in one transaction). */
  async function queued(to = address()) {
    const email = await passwordResetEmail(
      { email: to, firstName: 'Ada' },
      'http://vitrine.test/auth/reset-password?t=x',
    );
    const id = await t.database.db.transaction((tx) => queueEmail(tx, email, t.clock.now()));
    return { id, to };
  }
  const row = async (id: string) => (await t.database.db.select().from(outbox).where(eq(outbox.id, id)))[0]!;

  it('writes the email and its one delivery job together, due at once, to be tried for 24 hours', async () => {
    t.clock.freeze();
    const { id } = await queued();
    expect(await row(id)).toMatchObject({ status: 'queued', attempts: 0, sentAt: null });
    expect((await row(id)).deliverBy!.getTime() - (await row(id)).createdAt.getTime()).toBe(
      DELIVERY_WINDOW_MS,
    );
    expect(await findJob(t.database.db, EMAIL_JOB, id)).toMatchObject({ lane: 'mail', status: 'queued' });
    expect(await t.database.db.select().from(jobs).where(eq(jobs.key, id))).toHaveLength(1);
  });

  it('retries a temporary failure (421) with a growing delay, then sends it once', async () => {
    t.clock.freeze();
    const { id } = await queued();
    relay.replies.greeting = '421 4.3.2 Service not available, try again later';
    try {
      expect(await attempt(relay.url)).toBe(true);
      const first = await row(id);
      expect(first).toMatchObject({
        status: 'queued',
        attempts: 1,
        lastError: expect.stringContaining('421'),
      });
      expect(first.nextAttemptAt!.getTime() - first.attemptedAt!.getTime()).toBe(EMAIL_BACKOFF_MS(1));
      expect(EMAIL_BACKOFF_MS(1)).toBe(30_000);
      // Not due before the delay is over.
      expect(await attempt(relay.url)).toBe(false);
      t.clock.advance(30_000);
      expect(await attempt(relay.url)).toBe(true);
      const second = await row(id);
      expect(second).toMatchObject({ status: 'queued', attempts: 2 });
      expect(second.nextAttemptAt!.getTime() - second.attemptedAt!.getTime()).toBe(60_000);
      expect((await findJob(t.database.db, EMAIL_JOB, id))!.runAt).toEqual(second.nextAttemptAt);
    } finally {
      relay.replies.greeting = '220 relay.test ESMTP';
    }
    t.clock.advance(60_000);
    const before = relay.accepted.length;
    expect(await attempt(relay.url)).toBe(true);
    expect(relay.accepted.length - before).toBe(1);
    // The row's id names the message.
    expect(relay.accepted.at(-1)).toContain(`Message-ID: <${id}@vitrine.test>`);
    const sent = await row(id);
    expect(sent).toMatchObject({
      status: 'sent',
      attempts: 3,
      lastError: null,
      relayAnswer: { response: '250 2.0.0 Ok: queued', rejected: [] },
    });
    expect(sent.sentAt).toEqual(t.clock.now());
    expect(await findJob(t.database.db, EMAIL_JOB, id)).toMatchObject({ status: 'done' });
  });

  it('treats a refused connection and a relay that never answers as temporary', async () => {
    const closed = await freePort();
    const refused = await queued();
    expect(await attempt(`smtp://127.0.0.1:${closed}`)).toBe(true);
    expect(await row(refused.id)).toMatchObject({
      status: 'queued',
      lastError: expect.stringMatching(/ECONNREFUSED|ECONNECTION/),
    });
    await t.database.db.delete(jobs).where(eq(jobs.key, refused.id));

    const silent = await queued();
    relay.replies.silent = true;
    try {
      expect(await attempt(relay.url, { greetingTimeout: 300 })).toBe(true);
    } finally {
      relay.replies.silent = false;
    }
    expect(await row(silent.id)).toMatchObject({
      status: 'queued',
      lastError: expect.stringContaining('ETIMEDOUT'),
    });
    await t.database.db.delete(jobs).where(eq(jobs.key, silent.id));
  });

  it('fails at once on a permanent refusal (5xx), and never tries again', async () => {
    const { id } = await queued();
    relay.replies.rcpt = '550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown';
    try {
      expect(await attempt(relay.url)).toBe(true);
    } finally {
      relay.replies.rcpt = '250 2.1.5 Ok';
    }
    expect(await row(id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: expect.stringContaining('550 5.1.1'),
    });
    expect(await findJob(t.database.db, EMAIL_JOB, id)).toMatchObject({ status: 'done' });
    t.clock.advance(3_600_000);
    expect(await attempt(relay.url)).toBe(false);
    expect((await row(id)).attempts).toBe(1);

    // A refusal after the message itself (at the end of DATA) too.
    const late = await queued();
    relay.replies.data = '554 5.7.1 Message rejected as spam';
    try {
      expect(await attempt(relay.url)).toBe(true);
    } finally {
      relay.replies.data = '250 2.0.0 Ok: queued';
    }
    expect(await row(late.id)).toMatchObject({
      status: 'failed',
      lastError: expect.stringContaining('554 5.7.1'),
    });
  });

  it('fails an email not accepted within 24 hours, without another attempt', async () => {
    t.clock.freeze();
    const { id } = await queued();
    relay.replies.greeting = '451 4.3.0 Temporary local problem';
    try {
      expect(await attempt(relay.url)).toBe(true);
      expect((await row(id)).status).toBe('queued');
      t.clock.advance(DELIVERY_WINDOW_MS);
      const connections = relay.connections;
      expect(await attempt(relay.url)).toBe(true);
      expect(relay.connections).toBe(connections);
    } finally {
      relay.replies.greeting = '220 relay.test ESMTP';
    }
    expect(await row(id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: expect.stringMatching(/^Not accepted within 24 hours: .*451 4\.3\.0/),
    });
    expect(await findJob(t.database.db, EMAIL_JOB, id)).toMatchObject({ status: 'done' });
  });

  it('sends a message once however often its job runs again; a crash before the mark sends it again with the same Message-ID', async () => {
    const mailpit = inject('mailpitSmtp');
    const { id, to } = await queued();
    expect(await attempt(mailpit)).toBe(true);
    const [message] = await waitForEmails(to);
    expect(message!.MessageID).toBe(`${id}@vitrine.test`);
    expect((await row(id)).status).toBe('sent');
    // The job again (a replay): the row is sent, nothing goes out. A second enqueue adds no job.
    await enqueueJob(t.database.db, EMAIL_JOB, id);
    expect(await t.database.db.select().from(jobs).where(eq(jobs.key, id))).toHaveLength(1);
    await t.database.db
      .update(jobs)
      .set({ status: 'queued', runAt: new Date(0) })
      .where(eq(jobs.key, id));
    expect(await attempt(mailpit)).toBe(true);
    expect(await inbox(to)).toHaveLength(1);
    expect((await row(id)).attempts).toBe(1);

    // The process died after the relay accepted it and before `sent` was written: the row is still
    // `sending`. The next attempt sends it again, as the same message, which receivers drop as a
    // duplicate.
    await t.database.db.update(outbox).set({ status: 'sending', sentAt: null }).where(eq(outbox.id, id));
    await t.database.db
      .update(jobs)
      .set({ status: 'queued', runAt: new Date(0) })
      .where(eq(jobs.key, id));
    expect(await attempt(mailpit)).toBe(true);
    const twice = await waitForEmails(to, 2);
    expect(twice.map((m) => m.MessageID)).toEqual([`${id}@vitrine.test`, `${id}@vitrine.test`]);
    expect(twice[0]!.Text).toBe(twice[1]!.Text);
    expect((await row(id)).status).toBe('sent');
  });

  it('lets an admin see failed emails and send one again: the same row, a new series of attempts, audited', async () => {
    t.clock.freeze();
    const boss = await registerAdmin(t);
    const { id, to } = await queued();
    relay.replies.rcpt = '550 5.2.1 Mailbox disabled';
    try {
      await attempt(relay.url);
    } finally {
      relay.replies.rcpt = '250 2.1.5 Ok';
    }
    const list = await t.request('GET', `/api/admin/emails?status=failed&searchText=${to}`, {
      token: boss.authToken,
    });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({
      total: 1,
      results: [
        {
          id,
          to,
          subject: 'Reset your Vitrine password',
          status: 'failed',
          attempts: 1,
          lastError: expect.stringContaining('550 5.2.1'),
        },
      ],
    });
    expect(
      (await t.request('GET', '/api/admin/emails?status=lost', { token: boss.authToken })).body,
    ).toMatchObject({
      code: 'INVALID_VALUE',
      field: 'status',
    });

    const resend = (body: unknown, emailId = id) =>
      t.request('PATCH', `/api/admin/emails/${emailId}`, { token: boss.authToken, body });
    expect((await resend({})).status).toBe(400);
    expect((await resend({ resend: true }, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    t.clock.advance(10 * 60_000);
    const res = await resend({ resend: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, status: 'queued' });
    // Only a failed email: a second press finds it queued.
    const again = await resend({ resend: true });
    expect([again.status, again.body.code]).toEqual([409, 'EMAIL_NOT_FAILED']);
    // 24 hours to deliver it in, from now; its job runs again from the first attempt.
    expect((await row(id)).deliverBy).toEqual(new Date(t.clock.now().getTime() + DELIVERY_WINDOW_MS));
    expect(await findJob(t.database.db, EMAIL_JOB, id)).toMatchObject({ status: 'queued', attempts: 0 });

    expect(await attempt(inject('mailpitSmtp'))).toBe(true);
    const [message] = await waitForEmails(to);
    expect(message!.MessageID).toBe(`${id}@vitrine.test`);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });

    const audit = await t.request('GET', `/api/admin/audit?searchText=${encodeURIComponent(boss.email)}`, {
      token: boss.authToken,
    });
    expect(audit.body.results).toEqual([
      expect.objectContaining({
        action: 'email.resend',
        subjectType: 'email',
        subjectId: id,
        before: { status: 'failed', attempts: 1, lastError: expect.stringContaining('550 5.2.1') },
        after: { status: 'queued', lastError: null },
      }),
    ]);
  });
});
