import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Log } from './clock';
import type { Database, Executor } from './db';
import { jobs } from './db/schema';

/**
 * A small durable job queue on the `jobs` table (one row per (kind, key)).
 *
 * - `enqueueJob(tx, kind, key)` writes the job in the caller's transaction, so the job exists
 *   exactly when the change that asks for it commits; a second enqueue of the same (kind, key) does
 *   nothing.
 * - A worker claims one due job at a time with a single statement (`UPDATE … WHERE id = (SELECT …
 *   FOR UPDATE SKIP LOCKED)`): the job becomes `running`, leased to the worker until `lease_until`.
 *   Two workers never hold the same job; a job whose worker died (its lease ran out) is claimed
 *   again. While a job runs, its worker renews the lease.
 * - A handler that returns marks the job `done`; one that throws puts it back in the queue after a
 *   growing delay, with the error and the attempt count (`attempts` counts claims). Handlers must be
 *   idempotent: a job may run again after a crash at any point.
 * - Besides jobs, a worker runs periodic tasks (e.g. the expiry sweep of unpaid orders).
 */

export type JobRow = typeof jobs.$inferSelect;

export interface JobHandler {
  run(job: JobRow): Promise<void>;
  /** After this many failed attempts the job is `failed` for good; default: retried forever. */
  maxAttempts?: number;
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
  /** How often an idle worker looks for due jobs; default 1 s. */
  pollMs?: number;
  /** The delay before attempt n+1 after n failed ones; default 1 s, 2 s, 4 s … up to 5 min. */
  backoffMs?: (attempts: number) => number;
  now?: () => Date;
  log?: Log;
}

export interface JobWorker {
  readonly id: string;
  start(): void;
  /** Stops claiming, waits for the running job and task, and stops. */
  stop(): Promise<void>;
  /** Looks for due jobs at once (after an enqueue committed). */
  nudge(): void;
  /** Claims and runs one due job, if any; answers whether one ran (tests drive workers with it). */
  runOnce(): Promise<boolean>;
}

/** What route modules need of the worker: a way to make it look for new jobs now. */
export interface JobQueue {
  nudge(): void;
}

export const DEFAULT_LEASE_MS = 15_000;

export const defaultBackoffMs = (attempts: number) =>
  Math.min(300_000, 1000 * 2 ** Math.max(0, attempts - 1));

/** Writes a job in the caller's transaction; nothing when the (kind, key) job exists already. */
export async function enqueueJob(tx: Executor, kind: string, key: string, runAt?: Date): Promise<void> {
  await tx
    .insert(jobs)
    // The app's clock, as the workers' (the database's now() may run ahead of it by microseconds).
    .values({ kind, key, runAt: runAt ?? new Date() })
    .onConflictDoNothing({ target: [jobs.kind, jobs.key] });
}

/** The (kind, key) job, if any. */
export async function findJob(db: Executor, kind: string, key: string): Promise<JobRow | undefined> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, kind), eq(jobs.key, key)));
  return row;
}

/**
 * Claims the most overdue job of the given kinds for `workerId`: one statement, so it is atomic on
 * PostgreSQL (SKIP LOCKED lets concurrent workers pass each other's candidate) and on PGlite.
 */
export async function claimJob(
  db: Executor,
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
        sql`(select ${jobs.id} from ${jobs}
          where ${jobs.kind} in (${kindList})
            and ((${jobs.status} = 'queued' and ${jobs.runAt} <= ${now})
              or (${jobs.status} = 'running' and ${jobs.leaseUntil} < ${now}))
          order by ${jobs.runAt}
          limit 1
          for update skip locked)`,
      ),
    )
    .returning();
  return row;
}

const sleep = (ms: number, wake: { resolve?: () => void }) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      wake.resolve = undefined;
      resolve();
    }
    wake.resolve = done;
  });

export function createJobWorker(options: JobWorkerOptions): JobWorker {
  const { db, handlers } = options;
  const id = options.workerId ?? `worker-${randomBytes(4).toString('hex')}`;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? 1000;
  const backoff = options.backoffMs ?? defaultBackoffMs;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? console;
  const kinds = Object.keys(handlers);
  const wake: { resolve?: () => void } = {};
  let nudged = false;
  let running = false;
  let loop: Promise<void> | undefined;
  const taskTimers = new Set<NodeJS.Timeout>();
  const taskRuns = new Set<Promise<unknown>>();

  const mine = (jobId: string) => and(eq(jobs.id, jobId), eq(jobs.lockedBy, id), eq(jobs.status, 'running'));

  async function execute(job: JobRow): Promise<void> {
    const handler = handlers[job.kind]!;
    // The lease is renewed while the handler runs, so a long job is not taken by another worker.
    const renew = setInterval(
      () => {
        void db
          .update(jobs)
          .set({ leaseUntil: new Date(now().getTime() + leaseMs), updatedAt: now() })
          .where(mine(job.id))
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
        .where(mine(job.id));
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
          runAt: new Date(now().getTime() + backoff(job.attempts)),
          leaseUntil: null,
          lockedBy: null,
          lastError: message.slice(0, 2000),
          updatedAt: now(),
        })
        .where(mine(job.id))
        .catch((e) => log.error(`job ${job.kind} ${job.key}: rescheduling failed`, e));
    }
  }

  async function runOnce(): Promise<boolean> {
    const job = await db.transaction((tx) => claimJob(tx, kinds, id, now(), leaseMs));
    if (!job) return false;
    await execute(job);
    return true;
  }

  async function work() {
    while (running) {
      nudged = false;
      let ran = false;
      try {
        ran = await runOnce();
      } catch (err) {
        log.error(`job worker ${id}: claiming failed`, err);
      }
      if (!running) break;
      if (!ran && !nudged) await sleep(pollMs, wake);
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
      loop = work();
      for (const task of options.tasks ?? []) schedule(task);
    },
    async stop() {
      running = false;
      wake.resolve?.();
      for (const timer of taskTimers) clearTimeout(timer);
      taskTimers.clear();
      await loop;
      await Promise.allSettled([...taskRuns]);
    },
    nudge() {
      nudged = true;
      wake.resolve?.();
    },
    runOnce,
  };
}
