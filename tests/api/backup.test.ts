import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { backupDatabase, restoreDatabase } from '../../scripts/backup';
import { openDb } from '../../server/db';
import { webhookEvents } from '../../server/db/schema';
import { bothDatabases, openTestDatabase } from './support/harness';

/**
 * `npm run backup` and `npm run restore` (scripts/backup.ts): what was written is read back from a
 * fresh database restored from the file, and the restored database migrates as a server starts.
 */
describe.each(bothDatabases)('backup and restore on %s', (database) => {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-backup-'));
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Where a database lives: a data directory (PGlite) or a new, empty PostgreSQL database. */
  async function place(name: string, options: { empty?: boolean } = {}) {
    if (database === 'pglite') return { databaseUrl: undefined, dataDir: join(dir, name) };
    const created = await openTestDatabase('postgres', options);
    drops.push(created.drop);
    return { databaseUrl: created.url, dataDir: join(dir, name) };
  }

  it('reads back from a restored copy what was written before the backup, and nothing after it', async () => {
    const source = await place('source');
    const id = `evt_${randomUUID()}`;
    const later = `evt_${randomUUID()}`;
    let handle = await openDb(source);
    await handle.db.insert(webhookEvents).values({ id, provider: 'backup-test', type: 'written' });
    await handle.close();

    const file = join(dir, database === 'pglite' ? 'vitrine.tar.gz' : 'vitrine.dump');
    await backupDatabase(source, file);
    expect(statSync(file).size).toBeGreaterThan(0);
    handle = await openDb(source);
    await handle.db.insert(webhookEvents).values({ id: later, provider: 'backup-test', type: 'after' });
    await handle.close();

    const target = await place('target', { empty: true });
    await restoreDatabase(target, file);
    handle = await openDb(target);
    try {
      const rows = await handle.db
        .select({ id: webhookEvents.id, type: webhookEvents.type })
        .from(webhookEvents)
        .where(eq(webhookEvents.provider, 'backup-test'));
      expect(rows).toEqual([{ id, type: 'written' }]);
    } finally {
      await handle.close();
    }
    // A restore never lands on a database (PGlite: the data directory already holds one).
    if (database === 'pglite')
      await expect(restoreDatabase(target, file)).rejects.toThrow(/holds a database/);
  });
});
