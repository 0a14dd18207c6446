/**
 * `npm run backup -- <file>` and `npm run restore -- <file>`: the configured database (DATABASE_URL,
 * VITRINE_DATA_DIR, as the server reads them) to a file and back (docs/operations.md, "Running it").
 *
 * - PostgreSQL: pg_dump's custom format (`pg_dump --format=custom`), restored with pg_restore into
 *   an empty database (the one DATABASE_URL names); the server may run meanwhile.
 * - PGlite: the data directory `<dataDir>/pglite` as one gzipped tar (PGlite's dumpDataDir), restored
 *   into a data directory that has no database yet. PGlite is one process's: stop the server first.
 *
 * The rest of the data directory (media, the JWT secret) is not in the file: back it up beside it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Config } from '../server/config';
import { databaseKind } from '../server/db';

type DatabaseConfig = Pick<Config, 'databaseUrl' | 'dataDir'>;

/** A PostgreSQL client program: on PATH, else in pg_config's directory. */
function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  try {
    execFileSync(name, ['--version'], { stdio: 'ignore' });
    return name;
  } catch {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    return join(dir, name);
  }
}

const pgliteDir = (config: DatabaseConfig) => join(config.dataDir, 'pglite');
const openPglite = (dir: string, image?: Blob) =>
  new PGlite(dir, { extensions: { pg_trgm, btree_gin }, loadDataDir: image });

export async function backupDatabase(config: DatabaseConfig, file: string): Promise<void> {
  if (databaseKind(config) === 'postgres') {
    execFileSync(
      pgTool('pg_dump'),
      ['--format=custom', '--no-owner', `--file=${file}`, config.databaseUrl!],
      {
        stdio: 'inherit',
      },
    );
    return;
  }
  const dir = pgliteDir(config);
  if (!existsSync(join(dir, 'PG_VERSION'))) throw new Error(`no PGlite database in ${dir}`);
  const pg = openPglite(dir);
  try {
    await pg.waitReady;
    const image = await pg.dumpDataDir('gzip');
    writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  } finally {
    await pg.close();
  }
}

export async function restoreDatabase(config: DatabaseConfig, file: string): Promise<void> {
  if (databaseKind(config) === 'postgres') {
    execFileSync(
      pgTool('pg_restore'),
      ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${config.databaseUrl!}`, file],
      { stdio: 'inherit' },
    );
    return;
  }
  const dir = pgliteDir(config);
  if (existsSync(join(dir, 'PG_VERSION')))
    throw new Error(`${dir} holds a database already: restore into a data directory without one`);
  mkdirSync(dir, { recursive: true });
  const pg = openPglite(dir, new Blob([readFileSync(file)]));
  try {
    await pg.waitReady;
  } finally {
    await pg.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [command, file] = process.argv.slice(2);
  if (!file || (command !== 'backup' && command !== 'restore')) {
    console.error('usage: npm run backup -- <file>   |   npm run restore -- <file>');
    process.exit(2);
  }
  // The server's own reading of these two settings (server/config.ts).
  const config = {
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: resolve(process.env.VITRINE_DATA_DIR || './data'),
  };
  await (command === 'backup' ? backupDatabase : restoreDatabase)(config, file);
  console.log(`${command === 'backup' ? 'backed up to' : 'restored from'} ${file} (${databaseKind(config)})`);
}
