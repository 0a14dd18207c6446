/**
 * The purchase-complete poll tick on PGlite (`npx tsx bench/poll-tick.ts [N]`): the server time of
 * one `GET /api/orders/{id}` by its buyer (the session check and the order's answer), in process
 * without HTTP, on an in-memory PGlite with one order and its two timeline events. Median and p95
 * of N ticks (default 3,000) after 300 unmeasured ones. Beside it, the same database's bare
 * prepared `select 1` (the floor of any query on this machine today), so that the tick's figure can
 * be read on a slow day. Target: median ≤ 1 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { createApp } from '../server/app';
import { openDb } from '../server/db';
import { orderEvents, orders } from '../server/db/schema';
import { benchConfig } from './app';
import { percentile } from './checkout';

export const POLL_TICK_TARGET_MS = 1;

export async function pollTickTimes(n = 3000) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-'));
  const config = benchConfig(dataDir);
  const database = await openDb(config);
  const quiet = { info() {}, warn() {}, error: console.error } as never;
  try {
    const app = createApp({ config, database, log: quiet });
    const registered = await app.request('/api/users/registrations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'poll-tick@example.com',
        username: 'poll_tick',
        password: 'correct horse battery',
        firstName: 'Ada',
        lastName: 'Lovelace',
      }),
    });
    if (registered.status !== 201) throw new Error(`registration: ${registered.status}`);
    const { authToken, user } = (await registered.json()) as { authToken: string; user: { id: string } };
    const now = new Date();
    const [order] = await database.db
      .insert(orders)
      .values({
        buyerId: user.id,
        idempotencyKey: 'poll-tick',
        method: 'creditCard',
        itemKind: 'blueprint',
        itemId: crypto.randomUUID(),
        title: 'Poll tick',
        amount: 1500,
        walletAddress: '0x0000000000000001',
        status: 'minting',
        expiresAt: new Date(now.getTime() + 600_000),
      })
      .returning({ id: orders.id });
    await database.db.insert(orderEvents).values([
      { orderId: order!.id, type: 'created', createdAt: now },
      { orderId: order!.id, type: 'captured', createdAt: new Date(now.getTime() + 1000) },
    ]);
    const headers = { authorization: `Bearer ${authToken}` };
    const tick = async () => {
      const res = await app.request(`/api/orders/${order!.id}`, { headers });
      if (res.status !== 200) throw new Error(`GET orders/{id}: ${res.status}`);
      await res.arrayBuffer();
    };
    const bare = database.db
      .select({ one: sql<number>`1` })
      .from(sql`(select 1) as one`)
      .prepare('bench_one');
    const time = async (run: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let k = 0; k < n + 300; k++) {
        const t0 = performance.now();
        await run();
        if (k >= 300) times.push(performance.now() - t0);
      }
      return { median: percentile(times, 50), p95: percentile(times, 95) };
    };
    return { n, tick: await time(tick), bareSql: await time(() => bare.execute()) };
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printPollTick(r: Awaited<ReturnType<typeof pollTickTimes>>) {
  const ok = r.tick.median <= POLL_TICK_TARGET_MS ? 'ok' : 'MISSED';
  console.log(
    `purchase-complete poll tick, GET orders/{id} on PGlite, server time (${r.n} ticks): median ${r.tick.median.toFixed(3)} ms, p95 ${r.tick.p95.toFixed(3)} ms (target median ≤ ${POLL_TICK_TARGET_MS} ms: ${ok}); bare prepared select 1: median ${r.bareSql.median.toFixed(3)} ms (tick ${(r.tick.median / r.bareSql.median).toFixed(1)}× of it)`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printPollTick(await pollTickTimes(Number(process.argv[2] ?? 3000)));
}
