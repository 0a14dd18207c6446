import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  PGlite,
  parse as pgliteParse,
  protocol,
  type QueryOptions,
  type Results,
} from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { is } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite, PglitePreparedQuery } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Config } from '../config';
import { installationCache, writeWhole } from '../files';
import type { PoolStats } from '../metrics';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** The database or an open transaction: what a multi-step write passes along. */
export type Executor = Database | Transaction;
export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** PostgreSQL's connection pool (its counts are metrics); PGlite has none. */
  pool?: PoolStats;
  close(): Promise<void>;
}

type DatabaseConfig = Pick<Config, 'databaseUrl' | 'dataDir'>;

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** Held while migrating so that instances starting together on one PostgreSQL migrate one at a time. */
const MIGRATION_LOCK = 7_461_727_001;

export function databaseKind(config: DatabaseConfig): DatabaseKind {
  return /^postgres(ql)?:\/\//.test(config.databaseUrl ?? '') ? 'postgres' : 'pglite';
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url });
  pool.on('error', (err) => console.error('PostgreSQL idle client error', err));
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePostgres(drizzlePostgres({ client }), { migrationsFolder });
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  } catch (err) {
    client.release(true);
    await pool.end();
    throw err;
  }
  client.release();
  return { db: drizzlePostgres({ client: pool, schema }), kind: 'postgres', pool, close: () => pool.end() };
}

/**
 * PGlite has one connection. Drizzle's PGlite driver runs each transaction under PGlite's
 * transaction lock, and plain queries wait for it, so concurrent transactions are serialized.
 */
async function openPglite(config: DatabaseConfig): Promise<DatabaseHandle> {
  if (config.databaseUrl !== 'memory://') {
    const dir = join(config.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    const fresh = !existsSync(join(dir, 'PG_VERSION'));
    return pgliteHandle(await migratedPglite(dir, fresh ? await emptyImage() : undefined));
  }
  return pgliteHandle(await migratedPglite('memory://', await emptyImage()));
}

/** Where the image of a migrated empty database is kept: named by PGlite's version and the migrations. */
export function imagePath(): string {
  const hash = createHash('sha256');
  const pglite = join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..');
  hash.update(JSON.parse(readFileSync(join(pglite, 'package.json'), 'utf8')).version);
  for (const entry of readdirSync(migrationsFolder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort()) {
    hash.update(entry.slice(migrationsFolder.length)).update(readFileSync(entry));
  }
  return installationCache(`pglite-${hash.digest('hex').slice(0, 16)}.tar`);
}

/**
 * A migrated, empty database as a data directory image. Every new PGlite database (in memory, or a
 * fresh data directory) loads it (about 1 s) instead of creating a cluster and running every
 * migration (3 to 6 s); the migrator still runs on it and finds nothing to apply. It is made once per
 * installation, PGlite version and set of migrations, into node_modules/.cache/vitrine (whole or
 * not at all, so a process reads a whole image or none); where that cannot be written, once per
 * process.
 */
let migratedImage: Promise<Blob> | undefined;

function emptyImage(): Promise<Blob> {
  migratedImage ??= (async () => {
    const path = imagePath();
    if (existsSync(path)) return new Blob([readFileSync(path)]);
    const client = await migratedPglite('memory://');
    let image: Blob;
    try {
      image = await client.dumpDataDir('none');
    } finally {
      await client.close();
    }
    try {
      mkdirSync(dirname(path), { recursive: true });
      const bytes = Buffer.from(await image.arrayBuffer());
      await writeWhole(path, (temp) => writeFileSync(temp, bytes));
    } catch {
      // A read-only installation: this process keeps its own image.
    }
    return image;
  })().catch((err: unknown) => {
    migratedImage = undefined;
    throw err;
  });
  return migratedImage;
}

async function migratedPglite(dir: string, image?: File | Blob): Promise<PGlite> {
  // pg_trgm indexes the catalog's text search (migration 0004); btree_gin lets its index hold the
  // category beside the trigrams (migration 0024).
  const client = new PGlite(dir, {
    extensions: { pg_trgm, btree_gin },
    loadDataDir: image,
  });
  try {
    await client.waitReady;
    await migratePglite(drizzlePglite({ client }), { migrationsFolder });
  } catch (err) {
    await client.close();
    throw err;
  }
  return client;
}

function pgliteHandle(client: PGlite): DatabaseHandle {
  return { db: drizzlePglite({ client, schema }), kind: 'pglite', close: () => client.close() };
}

/** Opens the configured database and applies pending migrations (the same SQL for both drivers). */
export function openDb(config: DatabaseConfig): Promise<DatabaseHandle> {
  return databaseKind(config) === 'postgres' ? openPostgres(config.databaseUrl!) : openPglite(config);
}

/**
 * The error in `err`'s cause chain (drizzle wraps the driver's) that PostgreSQL raised with SQLSTATE
 * `code`, if that is why the statement failed.
 */
export function postgresError(err: unknown, code: string): (Error & { constraint?: string }) | undefined {
  for (let e = err; e instanceof Error; e = e.cause) {
    if ((e as Error & { code?: string }).code === code) return e;
  }
  return undefined;
}

/** The name of the unique constraint a failed insert or update violated, if that is why it failed. */
export function uniqueViolation(err: unknown): string | undefined {
  const violation = postgresError(err, '23505');
  return violation && (violation.constraint ?? '');
}

/* ---- Named statements ---- */

const wire = protocol.serialize;

/** Parsed statements per PGlite instance: name → its text and parameter types. */
const pgliteStatements = new WeakMap<PGlite, Map<string, { text: string; paramTypes: number[] }>>();
/** PGlite's parsers with a query's own (drizzle's, per prepared query), merged once. */
const mergedParsers = new WeakMap<
  QueryOptions,
  Record<number | string, (x: string, typeId?: number) => unknown>
>();

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Runs the statement `name` (parsed on first use, and again if its text changed) with the
 * parameters: one Bind, Describe, Execute and Sync. Like PGlite's query it waits for open
 * transactions and runs alone.
 */
async function runNamedStatement<T>(
  pg: PGlite,
  name: string,
  text: string,
  params: unknown[],
  options: QueryOptions = {},
): Promise<Results<T>> {
  await pg.waitReady;
  return pg._runExclusiveTransaction(() =>
    pg._runExclusiveQuery(async () => {
      let statements = pgliteStatements.get(pg);
      if (!statements) {
        statements = new Map();
        pgliteStatements.set(pg, statements);
      }
      let statement = statements.get(name);
      if (statement?.text !== text) {
        statements.delete(name);
        const { messages } = await pg.execProtocol(
          concat([
            ...(statement ? [wire.close({ type: 'S', name })] : []),
            wire.parse({ name, text, types: [] }),
            wire.describe({ type: 'S', name }),
            wire.sync(),
          ]),
          { syncToFs: false },
        );
        statement = { text, paramTypes: pgliteParse.parseDescribeStatementResults(messages) };
        statements.set(name, statement);
      }
      const { paramTypes } = statement;
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serialize = options.serializers?.[paramTypes[i]!] ?? pg.serializers[paramTypes[i]!];
        return serialize ? serialize(value) : String(value);
      });
      const { messages } = await pg.execProtocol(
        concat([
          wire.bind({ statement: name, values }),
          wire.describe({ type: 'P' }),
          wire.execute({}),
          wire.sync(),
        ]),
      );
      let parsers = mergedParsers.get(options);
      if (!parsers) {
        parsers = { ...pg.parsers, ...options.parsers };
        mergedParsers.set(options, parsers);
      }
      return pgliteParse.parseResults(messages, parsers, { ...options, parsers: undefined })[0] as Results<T>;
    }),
  );
}

/**
 * `query.prepare(name)`, kept prepared by the database: node-postgres parses a named statement once
 * per connection. Drizzle's PGlite driver ignores the name and parses, plans and describes the query
 * on every run, so on PGlite the statement is parsed once per instance and each run only binds and
 * executes it. Names are unique per query text.
 */
export function prepareNamed<P>(query: { prepare(name: string): P }, name: string): P {
  const prepared = query.prepare(name);
  if (is(prepared, PglitePreparedQuery)) {
    const target = prepared as unknown as { client: unknown };
    const pg = target.client;
    if (pg instanceof PGlite) {
      target.client = {
        query: <T>(text: string, params: unknown[], options?: QueryOptions) =>
          runNamedStatement<T>(pg, name, text, params, options),
      };
    }
  }
  return prepared;
}
