import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUND_FUSD_JOB } from '../../server/checkout/fusd/fusd';
import { FULFIL_JOB, SEND_FUSD_JOB } from '../../server/checkout/orders';
import { REFUND_TOKEN_JOB } from '../../server/checkout/token/rail';
import { WERT_REFUND_JOB } from '../../server/checkout/wert/wert';
import { type DatabaseHandle, openDb } from '../../server/db';
import { EMAIL_JOB, jobs } from '../../server/db/schema';
import { IMAGE_JOB } from '../../server/images/jobs';
import { claimJob, createJobWorker, enqueueJob, findJob, type JobRow } from '../../server/jobs';
import { bothDatabases, openTestDatabase } from './support/harness';

/**
 * The durable job queue (server/jobs.ts) on both databases: on PostgreSQL two workers on two
 * separate connections pools of one database race for the same jobs; on PGlite two workers share
 * the one connection. No job runs twice at once or twice in all; a job whose worker died (its lease
 * ran out) is taken again; failures back off; enqueue is once per (kind, key). Image work and money
 * work run in lanes of their own, and image jobs are shared fairly among accounts.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(10);
  }
}

describe.each(bothDatabases)('job queue on %s', (database) => {
  let dataDir: string;
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vitrine-jobs-'));
    const created = await openTestDatabase(database);
    drop = created.drop;
    first = await openDb({ databaseUrl: created.url, dataDir });
    // PostgreSQL: a second, independent pool (another process would have its own).
    second = database === 'postgres' ? await openDb({ databaseUrl: created.url, dataDir }) : first;
  });
  afterAll(async () => {
    if (second !== first) await second?.close();
    await first?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('enqueues once per (kind, key)', async () => {
    await first.db.transaction(async (tx) => {
      await enqueueJob(tx, 'once', 'a');
      await enqueueJob(tx, 'once', 'a');
    });
    await enqueueJob(first.db, 'once', 'a');
    expect(await first.db.select().from(jobs).where(eq(jobs.kind, 'once'))).toHaveLength(1);
  });

  it('never runs a job on two workers: 40 jobs, two workers, each job exactly once', async () => {
    const keys = Array.from({ length: 40 }, (_, i) => `job-${i}`);
    for (const key of keys) await enqueueJob(first.db, 'race', key);
    const runs: { key: string; worker: string }[] = [];
    const inFlight = new Set<string>();
    let overlaps = 0;
    const handler = (worker: string) => ({
      async run(job: JobRow) {
        if (inFlight.has(job.key)) overlaps++;
        inFlight.add(job.key);
        await sleep(5);
        runs.push({ key: job.key, worker });
        inFlight.delete(job.key);
      },
    });
    const a = createJobWorker({ db: first.db, handlers: { race: handler('a') }, workerId: 'a', pollMs: 20 });
    const b = createJobWorker({ db: second.db, handlers: { race: handler('b') }, workerId: 'b', pollMs: 20 });
    a.start();
    b.start();
    await until(async () => runs.length >= keys.length);
    await sleep(100);
    await Promise.all([a.stop(), b.stop()]);
    expect(overlaps).toBe(0);
    expect(runs.map((r) => r.key).sort()).toEqual([...keys].sort());
    const rows = await first.db.select().from(jobs).where(eq(jobs.kind, 'race'));
    expect(rows.every((r) => r.status === 'done' && r.attempts === 1)).toBe(true);
    console.log(
      `[${database}] 40 jobs: worker a ran ${runs.filter((r) => r.worker === 'a').length}, b ran ${runs.filter((r) => r.worker === 'b').length}`,
    );
  });

  it('takes again a job whose worker died (its lease ran out), and not before', async () => {
    await enqueueJob(first.db, 'lease', 'orphan');
    // A worker claims it and dies: nothing renews the lease.
    const claimed = await first.db.transaction((tx) =>
      claimJob(tx, 'money', ['lease'], 'dead-worker', new Date(), 300),
    );
    expect(claimed).toMatchObject({ key: 'orphan', status: 'running', lockedBy: 'dead-worker', attempts: 1 });
    const ran: JobRow[] = [];
    const live = createJobWorker({
      db: second.db,
      handlers: { lease: { run: async (job) => void ran.push(job) } },
      workerId: 'live',
    });
    expect(await live.runOnce()).toBe(false);
    await sleep(350);
    expect(await live.runOnce()).toBe(true);
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatchObject({ key: 'orphan', lockedBy: 'live', attempts: 2 });
    expect(await findJob(first.db, 'lease', 'orphan')).toMatchObject({ status: 'done', lockedBy: 'live' });
    // The dead worker's late completion would change nothing: the job is no longer its own.
  });

  it('renews the lease of a long job, so another worker does not take it', async () => {
    await enqueueJob(first.db, 'long', 'slow');
    let runs = 0;
    const handler = {
      async run() {
        runs++;
        await sleep(400);
      },
    };
    const a = createJobWorker({ db: first.db, handlers: { long: handler }, workerId: 'a', leaseMs: 150 });
    const b = createJobWorker({ db: second.db, handlers: { long: handler }, workerId: 'b', leaseMs: 150 });
    const running = a.runOnce();
    await sleep(250);
    expect(await b.runOnce()).toBe(false);
    expect(await running).toBe(true);
    expect(runs).toBe(1);
  });

  it('retries a failing job later with its error, and gives up after maxAttempts', async () => {
    await enqueueJob(first.db, 'flaky', 'x');
    let calls = 0;
    // The worker's clock, moved by hand: whether the retry is due never depends on how fast this
    // machine runs the steps between.
    let at = Date.now();
    const worker = createJobWorker({
      db: first.db,
      handlers: {
        flaky: {
          maxAttempts: 3,
          async run() {
            calls++;
            throw new Error(`boom ${calls}`);
          },
        },
      },
      backoffMs: () => 30,
      now: () => new Date(at),
      log: { info() {}, error() {} },
    });
    expect(await worker.runOnce()).toBe(true);
    expect(await findJob(first.db, 'flaky', 'x')).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: 'boom 1',
    });
    // Not due yet.
    expect(await worker.runOnce()).toBe(false);
    at += 40;
    expect(await worker.runOnce()).toBe(true);
    at += 40;
    expect(await worker.runOnce()).toBe(true);
    expect(await findJob(first.db, 'flaky', 'x')).toMatchObject({
      status: 'failed',
      attempts: 3,
      lastError: 'boom 3',
    });
    at += 40;
    expect(await worker.runOnce()).toBe(false);
  });

  it('runs at once when nudged, runs periodic tasks, and stop() waits for the running job', async () => {
    let finished = false;
    let ticks = 0;
    const worker = createJobWorker({
      db: first.db,
      handlers: {
        nudge: {
          async run() {
            await sleep(100);
            finished = true;
          },
        },
      },
      pollMs: 60_000,
      tasks: [{ name: 'tick', everyMs: 20, run: async () => ticks++ }],
    });
    worker.start();
    await sleep(30);
    await enqueueJob(first.db, 'nudge', 'now');
    worker.nudge();
    await until(async () => (await findJob(first.db, 'nudge', 'now'))?.status === 'running', 2000);
    await worker.stop();
    expect(finished).toBe(true);
    expect(await findJob(first.db, 'nudge', 'now')).toMatchObject({ status: 'done' });
    expect(ticks).toBeGreaterThan(0);
  });

  it('puts image work in the media lane, email in mail and every other kind (capture, mint, refunds, FUSD) in money', async () => {
    const money = [FULFIL_JOB, SEND_FUSD_JOB, REFUND_FUSD_JOB, WERT_REFUND_JOB, REFUND_TOKEN_JOB];
    const key = `lanes-${randomUUID()}`;
    for (const kind of [IMAGE_JOB, EMAIL_JOB, ...money])
      await enqueueJob(first.db, kind, key, new Date(Date.now() + 3_600_000));
    const rows = await first.db.select().from(jobs).where(eq(jobs.key, key));
    expect(Object.fromEntries(rows.map((r) => [r.kind, r.lane]))).toEqual({
      [IMAGE_JOB]: 'media',
      [EMAIL_JOB]: 'mail',
      ...Object.fromEntries(money.map((kind) => [kind, 'money'])),
    });
    await first.db.delete(jobs).where(eq(jobs.key, key));
  });

  it('claims a money job at once while the media lane of both workers is full of long image jobs', async () => {
    const images = Array.from({ length: 4 }, (_, i) => `busy-${i}-${randomUUID()}`);
    const payment = `pay-${randomUUID()}`;
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    const handlers = {
      // Image work that runs until the test lets it finish.
      [IMAGE_JOB]: { run: () => released },
      pay: { async run() {} },
    };
    const a = createJobWorker({ db: first.db, handlers, workerId: 'a', pollMs: 20 });
    const b = createJobWorker({ db: second.db, handlers, workerId: 'b', pollMs: 20 });
    // Four image jobs, all older than the payment: both media slots take one, two wait.
    const start = Date.now() - 60_000;
    for (const [i, key] of images.entries()) await enqueueJob(first.db, IMAGE_JOB, key, new Date(start + i));
    const imageRows = () =>
      first.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, IMAGE_JOB), inArray(jobs.key, images)));
    try {
      a.start();
      b.start();
      await until(async () => (await imageRows()).filter((r) => r.status === 'running').length === 2);
      await enqueueJob(first.db, 'pay', payment);
      a.nudge();
      b.nudge();
      await until(async () => (await findJob(first.db, 'pay', payment))?.status === 'done');
      // The media lane was full the whole time: its jobs still run or wait.
      const statuses = (await imageRows()).map((r) => r.status).sort();
      expect(statuses).toEqual(['queued', 'queued', 'running', 'running']);
    } finally {
      release();
      await until(async () => (await imageRows()).every((r) => r.status === 'done'));
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('shares the media lane fairly: one account’s ten queued images do not hold back another’s one', async () => {
    const start = Date.now() - 60_000;
    /** Ten jobs of account A, then one of B (the oldest first); answers the name of a claimed key. */
    const queue = async (a: string, b: string) => {
      const keys: Record<string, string> = {};
      for (let i = 0; i < 10; i++) {
        keys[`a${i}`] = `fair-a${i}-${randomUUID()}`;
        await enqueueJob(first.db, IMAGE_JOB, keys[`a${i}`]!, new Date(start + i), a);
      }
      keys.b = `fair-b-${randomUUID()}`;
      await enqueueJob(first.db, IMAGE_JOB, keys.b, new Date(start + 10), b);
      return (key: string | undefined) => Object.entries(keys).find(([, k]) => k === key)?.[0];
    };

    // One slot, each job finished before the next claim: the account served longest ago goes first.
    const named = await queue(randomUUID(), randomUUID());
    const ran: (string | undefined)[] = [];
    const worker = createJobWorker({
      db: second.db,
      handlers: { [IMAGE_JOB]: { run: async (job) => void ran.push(named(job.key)) } },
    });
    while (await worker.runOnce('media'));
    expect(ran).toEqual(['a0', 'b', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9']);
    await first.db.delete(jobs).where(eq(jobs.kind, IMAGE_JOB));

    // Two slots at once: A's first job runs, so B (nothing running) comes before A's second.
    const again = await queue(randomUUID(), randomUUID());
    const claim = (db: DatabaseHandle, worker: string) =>
      db.db.transaction((tx) => claimJob(tx, 'media', [IMAGE_JOB], worker, new Date()));
    expect(again((await claim(first, 'one'))?.key)).toBe('a0');
    expect(again((await claim(second, 'two'))?.key)).toBe('b');
    expect(again((await claim(first, 'three'))?.key)).toBe('a1');
    await first.db.delete(jobs).where(eq(jobs.kind, IMAGE_JOB));
  });
});
