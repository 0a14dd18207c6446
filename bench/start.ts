/**
 * Time from a command to a healthy /api/health (200), on a fresh data directory and again on the
 * same (already migrated) directory.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function healthy(port: number, deadline: number) {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('not healthy within the deadline');
}

export async function timeToHealthy(command: string[], dataDir: string, port: number): Promise<number> {
  const t0 = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, PORT: String(port), VITRINE_DATA_DIR: dataDir },
    stdio: 'ignore',
    detached: true,
  });
  try {
    await healthy(port, Date.now() + 120_000);
    return Math.round(performance.now() - t0);
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await new Promise((r) => child.once('exit', r));
    // npm exits at once; the server it started finishes its shutdown (and any image copy it is
    // writing) after: wait until no process of the group is left.
    for (let i = 0; i < 300 && groupAlive(child.pid!); i++) await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether any process of the process group is still running. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function startTimes() {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-start-'));
  try {
    return {
      npmStartFresh: await timeToHealthy(['npm', 'start'], dataDir, 3391),
      npmStartWarm: await timeToHealthy(['npm', 'start'], dataDir, 3392),
      serverOnlyWarm: await timeToHealthy(['npx', 'tsx', 'server/main.ts'], dataDir, 3393),
    };
  } finally {
    // The stopped servers' image copies may still be landing in the directory for a moment.
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t = await startTimes();
  console.log(`npm start → healthy, fresh data dir (build + migrate): ${t.npmStartFresh} ms`);
  console.log(`npm start → healthy, existing data dir (build included): ${t.npmStartWarm} ms`);
  console.log(`server only (tsx server/main.ts) → healthy, existing data dir: ${t.serverOnlyWarm} ms`);
}
