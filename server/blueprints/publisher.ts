import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, lt, ne, or } from 'drizzle-orm';
import { centsToFusd, percentToRate } from '#domain/money';
import { registerBlueprintArgs, uint64 } from '../chain/actions';
import { type FlowClient, FlowTransactionError } from '../chain/client';
import type { Log } from '../clock';
import type { Database } from '../db';
import { blueprintRegistrations, blueprints } from '../db/schema';

/**
 * Publishing: a blueprint whose status the owner set to readyToSell is registered for
 * sale on chain (VitrineBlueprints.register, signed by the admin), then becomes active. A durable
 * job: its row in `blueprint_registrations` records each step, so a restart resumes where it was
 * (a transaction already sent is awaited, not sent again), and the registration itself is
 * idempotent on chain. After `maxAttempts` failures the blueprint goes back to a draft (status
 * cleared) and the row says why.
 *
 * Canceling a registered blueprint closes it on chain (VitrineBlueprints.close) the same way: the
 * row's close status moves pending → submitted → sealed, retried until it is sealed.
 *
 * Several servers may share the database: a server works on a row only while it holds its lease
 * (`locked_by`, `lease_until`, taken with one conditional UPDATE and renewed while it works). A
 * server that finds the row leased to another looks again once the lease could have run out, so
 * the work of a server that died is taken over and no transaction is sent twice at once.
 */
export interface Publisher {
  /** Starts (or joins) the job of a blueprint that was just set ready to sell. */
  publish(blueprintId: string): Promise<void>;
  /** Starts (or joins) closing a canceled blueprint's sale on chain. */
  close(blueprintId: string): Promise<void>;
  /** Resumes every unfinished job (on start). */
  resume(): Promise<void>;
  /** Called after a blueprint became active or went back to draft. */
  onChange(listener: () => void): void;
  /** Waits for running jobs and stops retrying. */
  stop(): Promise<void>;
}

export interface PublisherDeps {
  db: Database;
  client: FlowClient;
  log?: Log;
  now?: () => Date;
  maxAttempts?: number;
  retryDelayMs?: number;
  /** How long a claim of a row holds (renewed every third of it while the work runs); default 60 s. */
  leaseMs?: number;
}

type Row = typeof blueprintRegistrations.$inferSelect;

/** A publisher's settings and its state, shared by its steps. */
interface Ctx {
  db: Database;
  client: FlowClient;
  log: Log | Console;
  now: () => Date;
  maxAttempts: number;
  retryDelayMs: number;
  leaseMs: number;
  /** This server's name on the leases it takes. */
  serverId: string;
  /** The job of each row being worked on (publishing by blueprint id, closing by `close <id>`). */
  running: Map<string, Promise<void>>;
  timers: Set<NodeJS.Timeout>;
  listeners: Array<() => void>;
  stopped: boolean;
}

export function createPublisher(deps: PublisherDeps): Publisher {
  const ctx: Ctx = {
    db: deps.db,
    client: deps.client,
    log: deps.log ?? console,
    now: deps.now ?? (() => new Date()),
    maxAttempts: deps.maxAttempts ?? 5,
    retryDelayMs: deps.retryDelayMs ?? 2_000,
    leaseMs: deps.leaseMs ?? 60_000,
    serverId: `publisher-${randomBytes(4).toString('hex')}`,
    running: new Map(),
    timers: new Set(),
    listeners: [],
    stopped: false,
  };
  const { db } = ctx;
  return {
    async publish(blueprintId) {
      if (ctx.stopped) return;
      void run(ctx, blueprintId);
    },
    async close(blueprintId) {
      if (ctx.stopped) return;
      void runClose(ctx, blueprintId);
    },
    async resume() {
      const rows = await db
        .select({ blueprintId: blueprintRegistrations.blueprintId })
        .from(blueprintRegistrations)
        .where(and(ne(blueprintRegistrations.status, 'sealed'), ne(blueprintRegistrations.status, 'failed')));
      for (const { blueprintId } of rows) void run(ctx, blueprintId);
      const closing = await db
        .select({ blueprintId: blueprintRegistrations.blueprintId })
        .from(blueprintRegistrations)
        .where(inArray(blueprintRegistrations.closeStatus, ['pending', 'submitted']));
      for (const { blueprintId } of closing) void runClose(ctx, blueprintId);
    },
    onChange(listener) {
      ctx.listeners.push(listener);
    },
    async stop() {
      ctx.stopped = true;
      for (const timer of ctx.timers) clearTimeout(timer);
      ctx.timers.clear();
      await Promise.allSettled([...ctx.running.values()]);
    },
  };
}

const update = (ctx: Ctx, blueprintId: string, values: Partial<Row>) =>
  ctx.db
    .update(blueprintRegistrations)
    .set({ ...values, updatedAt: ctx.now() })
    .where(eq(blueprintRegistrations.blueprintId, blueprintId));

const changed = (ctx: Ctx) => {
  for (const listener of ctx.listeners) listener();
};

/** Runs `work` after `ms` (unless the publisher stops first). */
function later(ctx: Ctx, ms: number, work: () => void) {
  if (ctx.stopped) return;
  const timer = setTimeout(() => {
    ctx.timers.delete(timer);
    work();
  }, ms);
  timer.unref();
  ctx.timers.add(timer);
}

const notSealedInTime = (err: unknown) =>
  err instanceof FlowTransactionError && /not sealed within/.test(err.message);

const registration = async (ctx: Ctx, blueprintId: string) =>
  (
    await ctx.db
      .select()
      .from(blueprintRegistrations)
      .where(eq(blueprintRegistrations.blueprintId, blueprintId))
  )[0];

/**
 * A transaction sent before (a restart, another server): true once it is sealed; false when the
 * chain does not know it (it never left: send anew) or it failed. One not sealed in time throws.
 */
async function sealedAlready(ctx: Ctx, transactionId: string): Promise<boolean> {
  const status = await ctx.client.transactionStatus(transactionId).catch(() => null);
  if (!status) return false;
  try {
    await ctx.client.waitForSeal(transactionId);
    return true;
  } catch (err) {
    if (!(err instanceof FlowTransactionError) || notSealedInTime(err)) throw err;
    return false;
  }
}

/** The chain has the registration: the blueprint is active (if it is still being published). */
async function finish(ctx: Ctx, row: Row, transactionId: string) {
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(blueprintRegistrations)
      .set({ status: 'sealed', transactionId, error: null, updatedAt: ctx.now() })
      .where(eq(blueprintRegistrations.blueprintId, row.blueprintId));
    await tx
      .update(blueprints)
      .set({ state: 'active', status: null, updatedAt: ctx.now() })
      .where(and(eq(blueprints.id, row.blueprintId), eq(blueprints.status, 'readyToSell')));
  });
  changed(ctx);
}

async function giveUp(ctx: Ctx, row: Row, message: string) {
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(blueprintRegistrations)
      .set({ status: 'failed', error: message, updatedAt: ctx.now() })
      .where(eq(blueprintRegistrations.blueprintId, row.blueprintId));
    await tx
      .update(blueprints)
      .set({ status: null, updatedAt: ctx.now() })
      .where(and(eq(blueprints.id, row.blueprintId), eq(blueprints.status, 'readyToSell')));
  });
  ctx.log.error(`publishing blueprint ${row.blueprintId} failed: ${message}`);
  changed(ctx);
}

async function submit(ctx: Ctx, row: Row): Promise<string> {
  const { db, client } = ctx;
  const [b] = await db.select().from(blueprints).where(eq(blueprints.id, row.blueprintId));
  if (!b) throw new Error('the blueprint no longer exists');
  await update(ctx, row.blueprintId, { attempts: row.attempts + 1, status: 'pending', error: null });
  const id = await client.send('transactions/register_blueprint.cdc', {
    signer: client.config.admin,
    args: registerBlueprintArgs({
      blueprintId: b.flowBlueprintId,
      maxEditions: b.quantity,
      price: centsToFusd(b.price),
      royalty: percentToRate(b.royaltyPercent),
      // platformFeeRate: the platform's cut of an accepted offer (VitrineOffers reads it; 5 % when absent).
      metadata: {
        title: b.title,
        blueprint: b.id,
        storefront: b.storefrontId,
        platformFeeRate: percentToRate(b.totalFeePercent),
      },
    }),
    // Stored before the transaction leaves, so that a crash after sending still knows it.
    onTransactionId: async (txId) => {
      await update(ctx, row.blueprintId, { status: 'submitted', transactionId: txId });
    },
  });
  await client.waitForSeal(id);
  return id;
}

async function attempt(ctx: Ctx, blueprintId: string): Promise<void> {
  const row = await registration(ctx, blueprintId);
  if (!row || row.status === 'failed') return;
  if (row.status === 'sealed') return finish(ctx, row, row.transactionId!);
  try {
    // Known to the chain: its outcome is this job's outcome. Unknown: it never left; send anew.
    if (row.status === 'submitted' && row.transactionId && (await sealedAlready(ctx, row.transactionId)))
      return await finish(ctx, row, row.transactionId);
    await finish(ctx, row, await submit(ctx, row));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const latest = await registration(ctx, blueprintId);
    if (!latest) return;
    // A transaction not sealed in time may still be: never give up on it, wait for it again.
    if (!notSealedInTime(err) && latest.attempts >= ctx.maxAttempts) return giveUp(ctx, latest, message);
    await update(ctx, blueprintId, { error: message });
    later(ctx, ctx.retryDelayMs, () => void run(ctx, blueprintId));
  }
}

/** Closes the sale on chain; a transaction already sent is awaited, not sent again. */
async function closeAttempt(ctx: Ctx, blueprintId: string): Promise<void> {
  const { client } = ctx;
  const row = await registration(ctx, blueprintId);
  if (!row?.closeStatus || row.closeStatus === 'sealed') return;
  try {
    const sent =
      row.closeStatus === 'submitted' &&
      row.closeTransactionId &&
      (await sealedAlready(ctx, row.closeTransactionId));
    if (!sent) {
      const id = await client.send('transactions/close_blueprint.cdc', {
        signer: client.config.admin,
        args: (arg, t) => [arg(uint64(row.flowBlueprintId), t.UInt64)],
        onTransactionId: async (txId) => {
          await update(ctx, blueprintId, { closeStatus: 'submitted', closeTransactionId: txId });
        },
      });
      await client.waitForSeal(id);
    }
    await update(ctx, blueprintId, { closeStatus: 'sealed', error: null });
  } catch (err) {
    // Closing must happen: it is retried (the sale is already canceled in the product).
    await update(ctx, blueprintId, { error: err instanceof Error ? err.message : String(err) });
    later(ctx, ctx.retryDelayMs, () => void runClose(ctx, blueprintId));
  }
}

/** Takes the row's lease for this server: free, run out, or this server's already. */
async function claim(ctx: Ctx, blueprintId: string): Promise<boolean> {
  const t = ctx.now();
  const rows = await ctx.db
    .update(blueprintRegistrations)
    .set({ lockedBy: ctx.serverId, leaseUntil: new Date(t.getTime() + ctx.leaseMs) })
    .where(
      and(
        eq(blueprintRegistrations.blueprintId, blueprintId),
        or(
          isNull(blueprintRegistrations.leaseUntil),
          lt(blueprintRegistrations.leaseUntil, t),
          eq(blueprintRegistrations.lockedBy, ctx.serverId),
        ),
      ),
    )
    .returning({ blueprintId: blueprintRegistrations.blueprintId });
  return rows.length > 0;
}

/** Runs `work` under the row's lease; leased to another server, looks again when it could end. */
async function leased(ctx: Ctx, blueprintId: string, work: () => Promise<void>, again: () => void) {
  if (!(await claim(ctx, blueprintId))) {
    later(ctx, ctx.leaseMs, again);
    return;
  }
  const renew = setInterval(
    () => void claim(ctx, blueprintId).catch(() => undefined),
    Math.max(10, ctx.leaseMs / 3),
  );
  renew.unref();
  try {
    await work();
  } finally {
    clearInterval(renew);
    await ctx.db
      .update(blueprintRegistrations)
      .set({ leaseUntil: null })
      .where(
        and(
          eq(blueprintRegistrations.blueprintId, blueprintId),
          eq(blueprintRegistrations.lockedBy, ctx.serverId),
        ),
      );
  }
}

/** The job under `key`: joined when it runs already, else started under the row's lease. */
function once(ctx: Ctx, key: string, blueprintId: string, step: () => Promise<void>, what: string) {
  const current = ctx.running.get(key);
  if (current) return current;
  const job = leased(ctx, blueprintId, step, () => void once(ctx, key, blueprintId, step, what))
    .catch((err) => ctx.log.error(`${what} blueprint ${blueprintId}`, err))
    .finally(() => ctx.running.delete(key));
  ctx.running.set(key, job);
  return job;
}

const run = (ctx: Ctx, blueprintId: string): Promise<void> =>
  once(ctx, blueprintId, blueprintId, () => attempt(ctx, blueprintId), 'publishing');

const runClose = (ctx: Ctx, blueprintId: string): Promise<void> =>
  once(ctx, `close ${blueprintId}`, blueprintId, () => closeAttempt(ctx, blueprintId), 'closing');
