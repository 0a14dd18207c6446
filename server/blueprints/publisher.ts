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

export function createPublisher(deps: PublisherDeps): Publisher {
  const { db, client } = deps;
  const log = deps.log ?? console;
  const now = deps.now ?? (() => new Date());
  const maxAttempts = deps.maxAttempts ?? 5;
  const retryDelayMs = deps.retryDelayMs ?? 2_000;
  const running = new Map<string, Promise<void>>();
  const serverId = `publisher-${randomBytes(4).toString('hex')}`;
  const leaseMs = deps.leaseMs ?? 60_000;
  const timers = new Set<NodeJS.Timeout>();
  const listeners: Array<() => void> = [];
  let stopped = false;

  const update = (blueprintId: string, values: Partial<Row>) =>
    db
      .update(blueprintRegistrations)
      .set({ ...values, updatedAt: now() })
      .where(eq(blueprintRegistrations.blueprintId, blueprintId));
  const changed = () => {
    for (const listener of listeners) listener();
  };

  /** The chain has the registration: the blueprint is active (if it is still being published). */
  async function finish(row: Row, transactionId: string) {
    await db.transaction(async (tx) => {
      await tx
        .update(blueprintRegistrations)
        .set({ status: 'sealed', transactionId, error: null, updatedAt: now() })
        .where(eq(blueprintRegistrations.blueprintId, row.blueprintId));
      await tx
        .update(blueprints)
        .set({ state: 'active', status: null, updatedAt: now() })
        .where(and(eq(blueprints.id, row.blueprintId), eq(blueprints.status, 'readyToSell')));
    });
    changed();
  }

  async function giveUp(row: Row, message: string) {
    await db.transaction(async (tx) => {
      await tx
        .update(blueprintRegistrations)
        .set({ status: 'failed', error: message, updatedAt: now() })
        .where(eq(blueprintRegistrations.blueprintId, row.blueprintId));
      await tx
        .update(blueprints)
        .set({ status: null, updatedAt: now() })
        .where(and(eq(blueprints.id, row.blueprintId), eq(blueprints.status, 'readyToSell')));
    });
    log.error(`publishing blueprint ${row.blueprintId} failed: ${message}`);
    changed();
  }

  async function submit(row: Row): Promise<string> {
    const [b] = await db.select().from(blueprints).where(eq(blueprints.id, row.blueprintId));
    if (!b) throw new Error('the blueprint no longer exists');
    await update(row.blueprintId, { attempts: row.attempts + 1, status: 'pending', error: null });
    const id = await client.send('transactions/register_blueprint.cdc', {
      signer: client.config.admin,
      args: registerBlueprintArgs({
        blueprintId: b.flowBlueprintId,
        maxEditions: b.quantity,
        price: centsToFusd(b.price),
        royalty: percentToRate(b.royaltyPercent),
        metadata: { title: b.title, blueprint: b.id, storefront: b.storefrontId },
      }),
      // Stored before the transaction leaves, so that a crash after sending still knows it.
      onTransactionId: async (txId) => {
        await update(row.blueprintId, { status: 'submitted', transactionId: txId });
      },
    });
    await client.waitForSeal(id);
    return id;
  }

  async function attempt(blueprintId: string): Promise<void> {
    const [row] = await db
      .select()
      .from(blueprintRegistrations)
      .where(eq(blueprintRegistrations.blueprintId, blueprintId));
    if (!row || row.status === 'failed') return;
    if (row.status === 'sealed') return finish(row, row.transactionId!);
    try {
      if (row.status === 'submitted' && row.transactionId) {
        // Known to the chain: its outcome is this job's outcome. Unknown: it never left; send anew.
        const status = await client.transactionStatus(row.transactionId).catch(() => null);
        if (status) {
          try {
            await client.waitForSeal(row.transactionId);
            return await finish(row, row.transactionId);
          } catch (err) {
            if (!(err instanceof FlowTransactionError) || /not sealed within/.test(err.message)) throw err;
          }
        }
      }
      await finish(row, await submit(row));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const [latest] = await db
        .select()
        .from(blueprintRegistrations)
        .where(eq(blueprintRegistrations.blueprintId, blueprintId));
      if (!latest) return;
      // A transaction not sealed in time may still be: never give up on it, wait for it again.
      const outcomeUnknown = err instanceof FlowTransactionError && /not sealed within/.test(err.message);
      if (!outcomeUnknown && latest.attempts >= maxAttempts) return giveUp(latest, message);
      await update(blueprintId, { error: message });
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        void run(blueprintId);
      }, retryDelayMs);
      timer.unref();
      timers.add(timer);
    }
  }

  /** Closes the sale on chain; a transaction already sent is awaited, not sent again. */
  async function closeAttempt(blueprintId: string): Promise<void> {
    const [row] = await db
      .select()
      .from(blueprintRegistrations)
      .where(eq(blueprintRegistrations.blueprintId, blueprintId));
    if (!row?.closeStatus || row.closeStatus === 'sealed') return;
    try {
      if (row.closeStatus === 'submitted' && row.closeTransactionId) {
        const status = await client.transactionStatus(row.closeTransactionId).catch(() => null);
        if (status) {
          try {
            await client.waitForSeal(row.closeTransactionId);
            await update(blueprintId, { closeStatus: 'sealed', error: null });
            return;
          } catch (err) {
            if (!(err instanceof FlowTransactionError) || /not sealed within/.test(err.message)) throw err;
          }
        }
      }
      const id = await client.send('transactions/close_blueprint.cdc', {
        signer: client.config.admin,
        args: (arg, t) => [arg(uint64(row.flowBlueprintId), t.UInt64)],
        onTransactionId: async (txId) => {
          await update(blueprintId, { closeStatus: 'submitted', closeTransactionId: txId });
        },
      });
      await client.waitForSeal(id);
      await update(blueprintId, { closeStatus: 'sealed', error: null });
    } catch (err) {
      // Closing must happen: it is retried (the sale is already canceled in the product).
      await update(blueprintId, { error: err instanceof Error ? err.message : String(err) });
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        void runClose(blueprintId);
      }, retryDelayMs);
      timer.unref();
      timers.add(timer);
    }
  }

  /** Takes the row's lease for this server: free, run out, or this server's already. */
  async function claim(blueprintId: string): Promise<boolean> {
    const t = now();
    const rows = await db
      .update(blueprintRegistrations)
      .set({ lockedBy: serverId, leaseUntil: new Date(t.getTime() + leaseMs) })
      .where(
        and(
          eq(blueprintRegistrations.blueprintId, blueprintId),
          or(
            isNull(blueprintRegistrations.leaseUntil),
            lt(blueprintRegistrations.leaseUntil, t),
            eq(blueprintRegistrations.lockedBy, serverId),
          ),
        ),
      )
      .returning({ blueprintId: blueprintRegistrations.blueprintId });
    return rows.length > 0;
  }

  /** Runs `work` under the row's lease; leased to another server, looks again when it could end. */
  async function leased(blueprintId: string, work: () => Promise<void>, again: () => void): Promise<void> {
    if (!(await claim(blueprintId))) {
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        again();
      }, leaseMs);
      timer.unref();
      timers.add(timer);
      return;
    }
    const renew = setInterval(
      () => void claim(blueprintId).catch(() => undefined),
      Math.max(10, leaseMs / 3),
    );
    renew.unref();
    try {
      await work();
    } finally {
      clearInterval(renew);
      await db
        .update(blueprintRegistrations)
        .set({ leaseUntil: null })
        .where(
          and(
            eq(blueprintRegistrations.blueprintId, blueprintId),
            eq(blueprintRegistrations.lockedBy, serverId),
          ),
        );
    }
  }

  function runClose(blueprintId: string): Promise<void> {
    const key = `close ${blueprintId}`;
    const current = running.get(key);
    if (current) return current;
    const job = leased(
      blueprintId,
      () => closeAttempt(blueprintId),
      () => void runClose(blueprintId),
    )
      .catch((err) => log.error(`closing blueprint ${blueprintId}`, err))
      .finally(() => running.delete(key));
    running.set(key, job);
    return job;
  }

  function run(blueprintId: string): Promise<void> {
    const current = running.get(blueprintId);
    if (current) return current;
    const job = leased(
      blueprintId,
      () => attempt(blueprintId),
      () => void run(blueprintId),
    )
      .catch((err) => log.error(`publishing blueprint ${blueprintId}`, err))
      .finally(() => running.delete(blueprintId));
    running.set(blueprintId, job);
    return job;
  }

  return {
    async publish(blueprintId) {
      if (stopped) return;
      void run(blueprintId);
    },
    async close(blueprintId) {
      if (stopped) return;
      void runClose(blueprintId);
    },
    async resume() {
      const rows = await db
        .select({ blueprintId: blueprintRegistrations.blueprintId })
        .from(blueprintRegistrations)
        .where(and(ne(blueprintRegistrations.status, 'sealed'), ne(blueprintRegistrations.status, 'failed')));
      for (const { blueprintId } of rows) void run(blueprintId);
      const closing = await db
        .select({ blueprintId: blueprintRegistrations.blueprintId })
        .from(blueprintRegistrations)
        .where(inArray(blueprintRegistrations.closeStatus, ['pending', 'submitted']));
      for (const { blueprintId } of closing) void runClose(blueprintId);
    },
    onChange(listener) {
      listeners.push(listener);
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running.values()]);
    },
  };
}
