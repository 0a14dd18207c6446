import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import autocannon from 'autocannon';
import { Pool } from 'pg';
import * as v from 'valibot';
import { BlueprintListQuery } from '#domain/schemas/catalog';
import { startThrowawayPostgres } from '../scripts/postgres';
import { createApp } from '../server/app';
import { blueprintListQueries } from '../server/blueprints/queries';
import { loadConfig } from '../server/config';
import { openDb } from '../server/db';
import { seedLargeWorld } from '../server/seed/large';
import { settleDisk } from './settle';

/**
 * The marketplace search of a large world (100,000 blueprints, 1,000,000 NFTs), on PGlite and on
 * PostgreSQL: GET /api/blueprints from one client with the catalog cache off (p50/p99), the same
 * SQL (a search's one statement: page and total, as the same prepared statement) run bare from
 * one client in turn with it, and the cached answers' throughput at saturation (autocannon in a
 * worker thread, 32 connections, 10 s, accepting brotli and gzip as a browser does).
 *
 * The one client is a bare HTTP/1.1 connection (see oneConnection), as wrk's and autocannon's are:
 * it runs in this process, so whatever CPU it spends reading an answer is counted as the server's.
 */
export interface CatalogFigures {
  kind: 'pglite' | 'postgres';
  seedMs: number;
  http: { p50: number; p99: number; n: number };
  bare: { p50: number; p99: number; n: number };
  cachedPerSecond: number;
}

/** Issue 15's targets: uncached p99 on PostgreSQL, its ratio to bare SQL, cached throughput. */
export const CATALOG_TARGETS = { p99Ms: 10, ratio: 1.3, cachedPerSecond: 5000 };

/** Searches run (over HTTP and bare alike) before the measured ones. */
const WARM_UP = 2000;

const words = ['amber', 'harbor', 'neon', 'comet', 'velvet', 'summit', 'lunar', 'drift', 'jade', 'prism'];
const categories = ['music', 'gaming,digitalArt', 'sports', 'photography,fashion,filmTv', ''];
/** Marketplace searches as visitors make them: a word, a price range, categories, sorted. */
const queries = words.flatMap((word, i) =>
  categories.map((cats, j) => {
    const q = new URLSearchParams({
      search: word,
      min: String(500 + i * 100),
      max: String(20_000 + j * 5000),
      to: '24',
    });
    if (cats) q.set('storefrontCategories', cats);
    if ((i + j) % 2) q.set('sort[direction]', 'desc');
    return q.toString();
  }),
);

/**
 * One kept-alive HTTP/1.1 connection that GETs a path and reads its whole answer (status line,
 * headers and a Content-Length body), and no more: node:http's or undici's client spends 0.1–0.3 ms
 * of CPU on reading a 19 kB answer into a stream, which this benchmark would count as the server's.
 * Only a 200 answer resolves.
 */
async function oneConnection(port: number) {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.setNoDelay(true);
  let received: Buffer = Buffer.alloc(0);
  let waiting: { path: string; resolve: () => void; reject: (e: Error) => void } | undefined;
  const settle = (error?: Error) => {
    const w = waiting;
    waiting = undefined;
    if (error) w?.reject(error);
    else w?.resolve();
  };
  socket.on('data', (chunk: Buffer) => {
    received = received.length ? Buffer.concat([received, chunk]) : chunk;
    const headEnd = received.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = received.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
    if (length === undefined) return settle(new Error(`${waiting?.path}: an answer without Content-Length`));
    const end = headEnd + 4 + Number(length);
    if (received.length < end) return;
    received = received.subarray(end);
    const status = head.slice(9, 12);
    settle(status === '200' ? undefined : new Error(`${waiting?.path}: ${status}`));
  });
  socket.on('error', (e) => settle(e));
  socket.on('close', () => settle(new Error('the server closed the connection')));
  return {
    get: (path: string) =>
      new Promise<void>((resolve, reject) => {
        waiting = { path, resolve, reject };
        socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      }),
    close: () => socket.destroy(),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
/** p50/p99 of a run's times. */
function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), n: times.length };
}

export async function catalogBench(
  kind: 'pglite' | 'postgres',
  size = { blueprints: 100_000, nfts: 1_000_000 },
  requests = 5000,
): Promise<CatalogFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-'));
  const postgres = kind === 'postgres' ? await startThrowawayPostgres() : null;
  const config = loadConfig({
    VITRINE_DATA_DIR: dataDir,
    NODE_ENV: 'production',
    FLOW_EMULATOR: 'off',
    VITRINE_SEED: 'off',
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  });
  let database = await openDb(config);
  const pool = postgres ? new Pool({ connectionString: postgres.url, max: 1 }) : null;
  /** The API on a port, with the catalog cache on or off. */
  const listen = async (cacheMs: number) => {
    const app = createApp({
      config: { ...config, catalogCacheMs: cacheMs },
      database,
      log: { info() {}, error: console.error },
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    return { server, port: (server.address() as AddressInfo).port };
  };
  const path = (i: number) => `/api/blueprints?${queries[i % queries.length]}`;
  try {
    const seeded = performance.now();
    await seedLargeWorld(database.db, size);
    const seedMs = performance.now() - seeded;
    // The server searches on connections of its own, as one started on a loaded database does: the
    // connection that bulk-loaded the world and vacuumed it is not one a server would search on.
    await database.close();
    database = await openDb(config);
    settleDisk();

    const uncached = await listen(0);
    const connection = await oneConnection(uncached.port);
    const get = (i: number) => connection.get(path(i));
    // The same statements, bare: drizzle builds them exactly as the route does; the driver runs them.
    const statements = queries.map((qs) => {
      const parsed = v.parse(BlueprintListQuery, Object.fromEntries(new URLSearchParams(qs)));
      return blueprintListQueries(database.db, parsed, false, new Date()).statements.map((st) => ({
        name: st.name,
        ...st.toSQL(),
      }));
    });
    const client = (
      database.db as unknown as { $client: { query(sql: string, params: unknown[]): Promise<unknown> } }
    ).$client;
    const run = async (i: number) => {
      for (const st of statements[i % statements.length]!) {
        // As the route runs it: a named statement is parsed and planned once per connection.
        if (pool)
          await pool.query({ name: st.name || undefined, text: st.sql, values: st.params as unknown[] });
        else await client.query(st.sql, st.params as unknown[]);
      }
    };
    // Each search over HTTP, then the same SQL bare, in turn: both see the machine as it is at that
    // moment (on a shared machine its speed drifts over a run), so their ratio compares like with like.
    const httpTimes: number[] = [];
    const bareTimes: number[] = [];
    const timed = async (into: number[], work: () => Promise<void>) => {
      const t = performance.now();
      await work();
      into.push(performance.now() - t);
    };
    // Warmed as a server is after its first seconds: V8 optimizes a request's path over its first
    // few thousand runs. Measured after 100 searches, a fresh server's HTTP p99 was 1.5–1.7× the
    // bare SQL's, and 1.2–1.3× from the 2,000th on, where it stays.
    for (let i = 0; i < WARM_UP; i++) await Promise.all([get(i), run(i)]);
    for (let i = 0; i < requests; i++) {
      await timed(httpTimes, () => get(i));
      await timed(bareTimes, () => run(i));
    }
    const http = summary(httpTimes);
    const bare = summary(bareTimes);
    connection.close();
    await new Promise((r) => uncached.server.close(r));

    const cached = await listen(60_000);
    const load = (duration: number) =>
      autocannon({
        url: `http://127.0.0.1:${cached.port}`,
        connections: 32,
        duration,
        workers: 1,
        // As a browser asks: the answers go out compressed (made once per cached answer).
        headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
        requests: queries.map((q) => ({ method: 'GET', path: `/api/blueprints?${q}` })),
      });
    // Every search answered once and kept (in the encodings a browser takes), then the load.
    for (const q of queries)
      await fetch(`http://127.0.0.1:${cached.port}/api/blueprints?${q}`, {
        headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
      }).then((r) => r.arrayBuffer());
    await load(2);
    const result = await load(10);
    await new Promise((r) => cached.server.close(r));
    const cachedPerSecond = result.requests.average;

    return { kind, seedMs, http, bare, cachedPerSecond };
  } finally {
    await pool?.end();
    await database.close();
    postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');

export function print(f: CatalogFigures) {
  const ratio = f.http.p99 / f.bare.p99;
  const onPostgres = f.kind === 'postgres';
  const t = CATALOG_TARGETS;
  console.log(`marketplace search on ${f.kind}, large world seeded in ${(f.seedMs / 1000).toFixed(1)} s:`);
  console.log(
    `  uncached, one client: HTTP p50 ${f.http.p50.toFixed(2)} ms, p99 ${f.http.p99.toFixed(2)} ms` +
      (onPostgres ? ` (target ≤ ${t.p99Ms}: ${mark(f.http.p99 <= t.p99Ms)})` : '') +
      `; bare SQL p50 ${f.bare.p50.toFixed(2)} ms, p99 ${f.bare.p99.toFixed(2)} ms; HTTP/bare p99 ${ratio.toFixed(2)}×` +
      (onPostgres ? ` (target ≤ ${t.ratio}: ${mark(ratio <= t.ratio)})` : '') +
      ` (${f.http.n} requests each)`,
  );
  console.log(
    `  cached, 32 connections: ${Math.round(f.cachedPerSecond)} req/s (target ≥ ${t.cachedPerSecond}: ${mark(f.cachedPerSecond >= t.cachedPerSecond)})`,
  );
}

if (process.argv[1]?.endsWith('catalog.ts')) {
  const size = {
    blueprints: Number(process.env.BENCH_BLUEPRINTS ?? 100_000),
    nfts: Number(process.env.BENCH_NFTS ?? 1_000_000),
  };
  const kinds = (process.env.BENCH_KINDS ?? 'postgres,pglite').split(',') as Array<'postgres' | 'pglite'>;
  for (const kind of kinds) print(await catalogBench(kind, size));
}
