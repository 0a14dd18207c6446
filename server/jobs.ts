import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Log } from './clock';
import { currentRequestId, withContext } from './context';
import type { Database, Executor } from './db';
import { type JobLane, jobLanes, jobs } from './db/schema';

/**
 * A small durable job queue on the `jobs` table (one row per (kind, key)).
 *
 * - `enqueueJob(tx, kind, key)` writes the job in the caller's transaction, so the job exists
 *   exactly when the change that asks for it commits; a second enqueue of the same (kind, key) does
 *   nothing.
 * - Every job is in a lane, from its kind (`jobs.lane`): `media` for image work, `mail` for email
 *   delivery, `money` for the rest (capture, mint, refund, FUSD transfer, top-up). A worker runs each
 *   lane in slots of its own (JOB_SLOTS: 2 money, 1 media, 1 mail), each slot one job at a time, so
 *   however many image or email jobs wait or run, a money job is claimed by the next free money slot.
 * - A slot claims one due job of its lane with a single statement (`UPDATE … WHERE id = (SELECT …
 *   FOR UPDATE SKIP LOCKED)`): the job becomes `running`, leased to the worker until `lease_until`.
 *   Two workers never hold the same job; a job whose worker died (its lease ran out) is claimed
 *   again. While a job runs, its worker renews the lease.
 * - Fair share: the next job of a lane is that of the account (`account_id`, e.g. an image's
 *   uploader) with the fewest running jobs, then the one served longest ago (never served first),
 *   then the most overdue job; jobs without an account (money work) go by how overdue they are.
 * - A handler that returns marks the job `done`; one that throws puts it back in the queue after a
 *   growing delay (the handler's own backoff, else the worker's), with the error and the attempt
 *   count (`attempts` counts claims). Handlers must be
 *   idempotent: a job may run again after a crash at any point.
 * - Besides jobs, a worker runs periodic tasks (e.g. the expiry sweep of unpaid orders).
 * - A job queued while a request is answered keeps that request's id (`request_id`); a job runs in
 *   the context of its kind and that id, so its log lines carry both (server/context.ts).
 */

export type JobRow = typeof jobs.$inferSelect;

export interface JobHandler {
  run(job: JobRow): Promise<void>;
  /** After this many failed attempts the job is `failed` for good; default: retried forever. */
  maxAttempts?: number;
  /** The delay before attempt n+1 after n failed ones; default the worker's backoffMs. */
  backoffMs?: (attempts: number) => number;
}

export interface PeriodicTask {
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

export interface JobWorkerOptions {
  db: Database;
  handlers: Record<string, JobHandler>;
  /** Tasks run every `everyMs` while the worker runs (first run at start). */
  tasks?: PeriodicTask[];
  /** Names this worker in `locked_by`; default a random id. */
  workerId?: string;
  /** How long a claim holds a job (renewed every third of it while the job runs); default 60 s. */
  leaseMs?: number;
  /** How often an idle slot looks for due jobs; default 1 s. */
  pollMs?: number;
  /** Jobs run at once per lane; default JOB_SLOTS. */
  slots?: Partial<Record<JobLane, number>>;
  /** The delay before attempt n+1 after n failed ones; default 1 s, 2 s, 4 s … up to 5 min. */
  backoffMs?: (attempts: number) => number;
  now?: () => Date;
  log?: Log;
  /** Told of each run's end: done, retried (failed, queued again) or failed (for good). */
  onFinished?: (kind: string, outcome: 'done' | 'retried' | 'failed') => void;
}

export interface JobWorker {
  readonly id: string;
  start(): void;
  /** Stops claiming, waits for the running jobs and tasks, and stops. */
  stop(): Promise<void>;
  /** Its idle slots look for due jobs at once (after an enqueue committed). */
  nudge(): void;
  /**
   * Claims and runs one due job of the lane (default: money, else media), if any; answers whether
   * one ran (tests drive workers with it).
   */
  runOnce(lane?: JobLane): Promise<boolean>;
}

/** What route modules need of the worker: a way to make it look for new jobs now. */
export interface JobQueue {
  nudge(): void;
}

export const DEFAULT_LEASE_MS = 15_000;

/**
 * Jobs a worker runs at once per lane. Money work mostly waits on the providers and the chain: with
 * two slots, one slow provider call does not hold up the next order (mints still go one at a time
 * per admin key, server/chain/client.ts). Image work is CPU (sharp): one at a time leaves the second
 * core of a 2-core server to requests and money work. Email waits on the relay: one at a time.
 */
export const JOB_SLOTS: Readonly<Record<JobLane, number>> = { money: 2, media: 1, mail: 1 };

export const defaultBackoffMs = (attempts: number) =>
  Math.min(300_000, 1000 * 2 ** Math.max(0, attempts - 1));

/**
 * Writes a job in the caller's transaction; nothing when the (kind, key) job exists already. Its
 * lane follows from its kind; `accountId` names the account it works for (fair share).
 */
export async function enqueueJob(
  tx: Executor,
  kind: string,
  key: string,
  runAt?: Date,
  accountId?: string,
): Promise<void> {
  await tx
    .insert(jobs)
    // The app's clock, as the workers' (the database's now() may run ahead of it by microseconds).
    .values({ kind, key, runAt: runAt ?? new Date(), accountId, requestId: currentRequestId() })
    .onConflictDoNothing({ target: [jobs.kind, jobs.key] });
}

/**
 * Runs the (kind, key) job again, from its first attempt, at `runAt` (written when missing), in the
 * caller's transaction: an admin's resend of a failed email.
 */
export async function requeueJob(tx: Executor, kind: string, key: string, runAt: Date): Promise<void> {
  await tx
    .insert(jobs)
    .values({ kind, key, runAt })
    .onConflictDoUpdate({
      target: [jobs.kind, jobs.key],
      set: {
        status: 'queued',
        runAt,
        attempts: 0,
        leaseUntil: null,
        lockedBy: null,
        lastError: null,
        updatedAt: runAt,
      },
    });
}

/** The (kind, key) job, if any. */
export async function findJob(db: Executor, kind: string, key: string): Promise<JobRow | undefined> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, kind), eq(jobs.key, key)));
  return row;
}

const candidate = alias(jobs, 'candidate');
const busy = alias(jobs, 'busy');
const served = alias(jobs, 'served');

/**
 * Claims the lane's next due job of the given kinds for `workerId` (fair share, see above): one
 * statement, so it is atomic on PostgreSQL (SKIP LOCKED lets concurrent workers pass each other's
 * candidate) and on PGlite.
 */
export async function claimJob(
  db: Executor,
  lane: JobLane,
  kinds: string[],
  workerId: string,
  now: Date,
  leaseMs = DEFAULT_LEASE_MS,
): Promise<JobRow | undefined> {
  if (kinds.length === 0) return undefined;
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const kindList = sql.join(
    kinds.map((k) => sql`${k}`),
    sql`, `,
  );
  const [row] = await db
    .update(jobs)
    .set({
      status: 'running',
      leaseUntil,
      lockedBy: workerId,
      attempts: sql`${jobs.attempts} + 1`,
      updatedAt: now,
    })
    .where(
      eq(
        jobs.id,
        sql`(select ${candidate.id} from ${jobs} ${candidate}
          where ${candidate.lane} = ${lane} and ${candidate.kind} in (${kindList})
            and ((${candidate.status} = 'queued' and ${candidate.runAt} <= ${now})
              or (${candidate.status} = 'running' and ${candidate.leaseUntil} < ${now}))
          order by
            (select count(*) from ${jobs} ${busy} where ${busy.accountId} = ${candidate.accountId}
              and ${busy.status} = 'running' and ${busy.leaseUntil} >= ${now}),
            (select max(${served.updatedAt}) from ${jobs} ${served}
              where ${served.accountId} = ${candidate.accountId} and ${served.attempts} > 0) nulls first,
            ${candidate.runAt}
          limit 1
          for update skip locked)`,
      ),
    )
    .returning();
  return row;
}

/** An idle slot: `nudged` when asked to look again, `wake` ends its sleep. */
interface Slot {
  nudged: boolean;
  wake?: () => void;
}

const sleep = (ms: number, slot: Slot) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      slot.wake = undefined;
      resolve();
    }
    slot.wake = done;
  });

/** What a worker's job runs need: its id, lease, retry delay, clock and log. */
interface Worker {
  db: Database;
  id: string;
  leaseMs: number;
  backoff: (attempts: number) => number;
  now: () => Date;
  log: Log;
  onFinished?: JobWorkerOptions['onFinished'];
}

/** The job, while this worker holds its lease. */
const leased = (workerId: string, jobId: string) =>
  and(eq(jobs.id, jobId), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running'));

/**
 * Runs a claimed job: its lease renewed while the handler runs; done, or on failure queued again after
 * its backoff (failed for good after the handler's maxAttempts), the error kept.
 */
async function executeJob(w: Worker, handler: JobHandler, job: JobRow): Promise<void> {
  const { db, now, leaseMs, log } = w;
  // The lease is renewed while the handler runs, so a long job is not taken by another worker.
  const renew = setInterval(
    () => {
      void db
        .update(jobs)
        .set({ leaseUntil: new Date(now().getTime() + leaseMs), updatedAt: now() })
        .where(leased(w.id, job.id))
        .catch((err) => log.error(`job ${job.kind} ${job.key}: renewing the lease failed`, err));
    },
    Math.max(10, Math.floor(leaseMs / 3)),
  );
  renew.unref?.();
  try {
    await handler.run(job);
    clearInterval(renew);
    await db
      .update(jobs)
      .set({ status: 'done', leaseUntil: null, lastError: null, updatedAt: now() })
      .where(leased(w.id, job.id));
    log.info(`job ${job.kind} ${job.key} done`, { attempt: job.attempts });
    w.onFinished?.(job.kind, 'done');
  } catch (err) {
    clearInterval(renew);
    const message = err instanceof Error ? err.message : String(err);
    const giveUp = handler.maxAttempts !== undefined && job.attempts >= handler.maxAttempts;
    log.error(
      `job ${job.kind} ${job.key} attempt ${job.attempts} failed${giveUp ? ' for good' : ''}: ${message}`,
    );
    await db
      .update(jobs)
      .set({
        status: giveUp ? 'failed' : 'queued',
        runAt: new Date(now().getTime() + (handler.backoffMs ?? w.backoff)(job.attempts)),
        leaseUntil: null,
        lockedBy: null,
        lastError: message.slice(0, 2000),
        updatedAt: now(),
      })
      .where(leased(w.id, job.id))
      .catch((e) => log.error(`job ${job.kind} ${job.key}: rescheduling failed`, e));
    w.onFinished?.(job.kind, giveUp ? 'failed' : 'retried');
  }
}

export function createJobWorker(options: JobWorkerOptions): JobWorker {
  const { db, handlers } = options;
  const id = options.workerId ?? `worker-${randomBytes(4).toString('hex')}`;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? 1000;
  const backoff = options.backoffMs ?? defaultBackoffMs;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? console;
  const slotsPerLane = { ...JOB_SLOTS, ...options.slots };
  const kinds = Object.keys(handlers);
  const slots: Slot[] = [];
  let running = false;
  let loops: Promise<void>[] = [];
  const taskTimers = new Set<NodeJS.Timeout>();
  const taskRuns = new Set<Promise<unknown>>();

  const worker: Worker = { db, id, leaseMs, backoff, now, log, onFinished: options.onFinished };

  /** Runs the job in its context: its kind, and the id of the request that queued it. */
  const execute = (job: JobRow) =>
    withContext({ job: job.kind, requestId: job.requestId ?? undefined }, () =>
      executeJob(worker, handlers[job.kind]!, job),
    );

  async function claimAndRun(lane: JobLane): Promise<boolean> {
    const job = await db.transaction((tx) => claimJob(tx, lane, kinds, id, now(), leaseMs));
    if (!job) return false;
    await execute(job);
    return true;
  }

  async function runOnce(lane?: JobLane): Promise<boolean> {
    for (const l of lane ? [lane] : jobLanes) if (await claimAndRun(l)) return true;
    return false;
  }

  /** One slot of a lane: runs the lane's due jobs one after another, and sleeps when there is none. */
  async function work(lane: JobLane, slot: Slot) {
    while (running) {
      slot.nudged = false;
      let ran = false;
      try {
        ran = await claimAndRun(lane);
      } catch (err) {
        log.error(`job worker ${id}: claiming a ${lane} job failed`, err);
      }
      if (!running) break;
      if (!ran && !slot.nudged) await sleep(pollMs, slot);
    }
  }

  function schedule(task: PeriodicTask) {
    const tick = () => {
      if (!running) return;
      const run = task
        .run()
        .catch((err) => log.error(`task ${task.name} failed`, err))
        .finally(() => {
          taskRuns.delete(run);
          if (!running) return;
          const timer = setTimeout(() => {
            taskTimers.delete(timer);
            tick();
          }, task.everyMs);
          timer.unref?.();
          taskTimers.add(timer);
        });
      taskRuns.add(run);
    };
    tick();
  }

  return {
    id,
    start() {
      if (running) return;
      running = true;
      loops = jobLanes.flatMap((lane) =>
        Array.from({ length: slotsPerLane[lane] }, () => {
          const slot: Slot = { nudged: false };
          slots.push(slot);
          return work(lane, slot);
        }),
      );
      for (const task of options.tasks ?? []) schedule(task);
    },
    async stop() {
      running = false;
      for (const slot of slots) slot.wake?.();
      for (const timer of taskTimers) clearTimeout(timer);
      taskTimers.clear();
      await Promise.all(loops);
      slots.length = 0;
      await Promise.allSettled([...taskRuns]);
    },
    nudge() {
      for (const slot of slots) {
        slot.nudged = true;
        slot.wake?.();
      }
    },
    runOnce,
  };
}
