import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../server/config';
import {
  type DatabaseHandle,
  databaseKind,
  imagePath,
  openDb,
  prepareNamed,
  uniqueViolation,
} from '../../server/db';
import journal from '../../server/db/migrations/meta/_journal.json' with { type: 'json' };
import { users } from '../../server/db/schema';
import { bothDatabases, openTestDatabase, testConfig } from './support/harness';

/** Rows of a raw query; both drivers answer `{ rows }`. */
async function rows<T>(handle: DatabaseHandle, query: SQL): Promise<T[]> {
  return ((await handle.db.execute(query)) as { rows: T[] }).rows;
}

const user = (name: string) => ({
  email: `${name}@example.com`,
  username: name,
  passwordHash: 'not-a-real-hash',
  firstName: 'Test',
});

describe.each(bothDatabases)('the database layer on %s', (database) => {
  let config: Config;
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-db-'));

  beforeAll(async () => {
    const created = await openTestDatabase(database);
    drop = created.drop;
    config = testConfig(created.url, dataDir);
    handle = await openDb(config);
  });
  afterAll(async () => {
    await handle.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens the configured kind with every table migrated', async () => {
    expect(handle.kind).toBe(database);
    expect(databaseKind(config)).toBe(database);
    const tables = await rows<{ table_name: string }>(
      handle,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.map((r) => r.table_name)).toEqual([
      'activity',
      'admin_actions',
      'billing_infos',
      'blueprint_packs',
      'blueprint_registrations',
      'blueprint_search',
      'blueprint_search_words',
      'blueprint_words',
      'blueprints',
      'card_charges',
      'chain_cursor',
      'coinbase_charges',
      'email_changes',
      'favorites',
      'free_blueprint_claims',
      'fusd_payments',
      'image_jobs',
      'jobs',
      'kyc_verifications',
      'login_throttles',
      'mints',
      'nft_purchases',
      'nfts',
      'notifications',
      'offers',
      'order_events',
      'order_items',
      'orders',
      'outbox',
      'password_resets',
      'payout_requests',
      'rate_events',
      'sale_listings',
      'sessions',
      'storefront_reports',
      'storefront_stats',
      'storefronts',
      'token_charges',
      'token_transactions',
      'users',
      'wallet_nonces',
      'webhook_events',
      'wert_charges',
    ]);
  });

  it('applies user defaults: creator, active, level 1, scores 0', async () => {
    const [row] = await handle.db.insert(users).values(user('defaults')).returning();
    expect(row).toMatchObject({
      role: 'creator',
      status: 'active',
      level: 1,
      collectorScore: 0,
      tokenVersion: 0,
    });
  });

  it('loses no update when transactions read and write the same row concurrently', async () => {
    const [row] = await handle.db.insert(users).values(user('counter')).returning();
    const increments = 25;
    await Promise.all(
      Array.from({ length: increments }, () =>
        handle.db.transaction(async (tx) => {
          // Row lock on PostgreSQL; PGlite serializes whole transactions on its one connection.
          const [current] = await tx.select().from(users).where(eq(users.id, row!.id)).for('update');
          await new Promise((resolve) => setTimeout(resolve, 1));
          await tx
            .update(users)
            .set({ collectorScore: current!.collectorScore + 1 })
            .where(eq(users.id, row!.id));
        }),
      ),
    );
    const [after] = await handle.db.select().from(users).where(eq(users.id, row!.id));
    expect(after!.collectorScore).toBe(increments);
  });

  it('rolls a failed transaction back entirely', async () => {
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(users).values(user('rolledback'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await handle.db.select().from(users).where(eq(users.username, 'rolledback'))).toEqual([]);
  });

  it('names the unique constraint a write broke, case-insensitively for usernames', async () => {
    await handle.db.insert(users).values(user('unique'));
    const failure = (values: ReturnType<typeof user>) =>
      handle.db
        .insert(users)
        .values(values)
        .then(() => undefined, uniqueViolation);
    expect(await failure({ ...user('other'), email: 'unique@example.com' })).toBe('users_email_unique');
    expect(await failure({ ...user('other'), username: 'UNIQUE' })).toBe('users_username_unique');
    expect(uniqueViolation(new Error('something else'))).toBeUndefined();
  });

  it('keeps a query outside a transaction out of that transaction and its rollback', async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const failing = handle.db
      .transaction(async (tx) => {
        await tx.insert(users).values(user('inside'));
        await sleep(30);
        throw new Error('abort');
      })
      .catch(() => undefined);
    await sleep(5);
    await handle.db.insert(users).values(user('outside'));
    await failing;
    const names = (await handle.db.select().from(users)).map((r) => r.username);
    expect(names).toContain('outside');
    expect(names).not.toContain('inside');
  });
});

describe.each(bothDatabases)('reopening a database on %s', (database) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-db-'));
  let drop: () => Promise<void> = async () => undefined;
  afterAll(async () => {
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the data and applies each migration once', async () => {
    let databaseUrl: string | undefined; // PGlite in <dataDir>/pglite
    if (database === 'postgres')
      ({ url: databaseUrl, drop } = await openTestDatabase(database, { empty: true }));
    const config = testConfig('', dataDir, { databaseUrl });
    const first = await openDb(config);
    await first.db.insert(users).values(user('persisted'));
    await first.close();
    const second = await openDb(config);
    try {
      expect(second.kind).toBe(database);
      expect((await second.db.select().from(users)).map((r) => r.username)).toEqual(['persisted']);
      const applied = await rows<{ n: number }>(
        second,
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect(applied[0]!.n).toBe(journal.entries.length);
      // A fresh PGlite directory starts from the installation's image of a migrated database.
      if (database === 'pglite') expect(existsSync(imagePath())).toBe(true);
    } finally {
      await second.close();
    }
  });
});

describe.each(bothDatabases)('named statements (prepareNamed) on %s', (database) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-db-named-'));

  beforeAll(async () => {
    const created = await openTestDatabase(database);
    drop = created.drop;
    handle = await openDb(testConfig(created.url, dataDir));
  });
  afterAll(async () => {
    await handle.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const byId = () =>
    prepareNamed(
      handle.db
        .select()
        .from(users)
        .where(eq(users.id, sql.placeholder('id'))),
      'test_user_by_id',
    );

  it('answers what the query builder answers, after an error, a rollback and many at once', async () => {
    const [u] = await handle.db.insert(users).values(user('named_one')).returning();
    const statement = byId();
    expect(await statement.execute({ id: u!.id })).toEqual(
      await handle.db.select().from(users).where(eq(users.id, u!.id)),
    );
    // A bad parameter fails that run only.
    await expect(statement.execute({ id: 'not-a-uuid' })).rejects.toThrow();
    expect(await statement.execute({ id: u!.id })).toHaveLength(1);
    await handle.db
      .transaction(async (tx) => {
        await tx.update(users).set({ firstName: 'Nope' }).where(eq(users.id, u!.id));
        tx.rollback();
      })
      .catch(() => undefined);
    expect((await statement.execute({ id: u!.id }))[0]!.firstName).toBe('Test');
    const many = await Promise.all(Array.from({ length: 50 }, () => statement.execute({ id: u!.id })));
    expect(many.every((r) => r.length === 1)).toBe(true);
  });

  it('never reads inside another open transaction: it sees the committed row', async () => {
    const [u] = await handle.db.insert(users).values(user('named_two')).returning();
    const statement = byId();
    const seen: string[] = [];
    const writer = handle.db.transaction(async (tx) => {
      await tx.update(users).set({ firstName: 'Changed' }).where(eq(users.id, u!.id));
      await new Promise((r) => setTimeout(r, 300));
      seen.push('committed');
    });
    const reader = statement.execute({ id: u!.id }).then((r) => seen.push(`read ${r[0]!.firstName}`));
    await Promise.all([writer, reader]);
    // PGlite has one connection: the read waits for the commit. PostgreSQL reads the last commit.
    expect(seen).toEqual(database === 'pglite' ? ['committed', 'read Changed'] : ['read Test', 'committed']);
  });
});
