import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from './support/harness';

/**
 * Two server processes on one PostgreSQL and one media directory, as behind a load balancer: image
 * jobs asked of either are shared by both servers' workers through the jobs table (row locks and
 * leases), and each is done exactly once.
 */
describe('two servers on one PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-servers-'));
  const children: ChildProcess[] = [];
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const letters = () => Array.from(randomBytes(8), (b) => String.fromCharCode(97 + (b % 26))).join('');

  /** A `tsx server/main.ts` process; answers its port once it listens. */
  async function server(databaseUrl: string): Promise<{ port: number; child: ChildProcess }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env,
        PORT: '0',
        VITRINE_DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        JWT_SECRET: 'two-servers-share-one-secret-long-enough',
        FLOW_EMULATOR: 'off',
        VITRINE_SEED: 'off',
        CHECKOUT_COM_SANDBOX_PORT: '0',
        COINBASE_COMMERCE_SANDBOX_PORT: '0',
        WERT_SANDBOX_PORT: '0',
        VERIFF_SANDBOX_PORT: '0',
        // Mailpit's fixed ports would collide too: no email leaves these servers.
        MAIL: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk;
        const match = output.match(/Vitrine listening on http:\/\/localhost:(\d+)/);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
    });
    for (;;) {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
      if (res?.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return { port, child };
  }

  it('shares the image jobs of both between both, and does each once', async () => {
    const created = await openTestDatabase('postgres', { empty: true });
    drop = created.drop;
    // One after the other: the first migrates the database.
    const a = await server(created.url);
    const b = await server(created.url);
    const servers = [a.port, b.port];
    const api = async (port: number, method: string, path: string, token?: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${port}/api${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as Record<string, string> };
    };
    // Noise takes about a second to quantize: while one worker is busy, the other claims the next.
    const slow = await sharp(randomBytes(500 * 500 * 3), { raw: { width: 500, height: 500, channels: 3 } })
      .png()
      .toBuffer();
    const jobs: Array<{ token: string; jobId: string; publicUrl: string }> = [];
    for (let user = 0; user < 4; user++) {
      const email = `servers-${user}-${randomBytes(4).toString('hex')}@example.com`;
      const registered = await api(servers[user % 2]!, 'POST', '/users/registrations', undefined, {
        email,
        username: `servers_${letters()}`,
        password: 'two-servers-password',
        firstName: 'Two',
      });
      expect(registered.status).toBe(201);
      const token = registered.body.authToken!;
      // Each user asks for two jobs, one of each server.
      for (const port of servers) {
        const objectKey = `noise-${randomBytes(4).toString('hex')}.png`;
        const grant = await api(
          port,
          'GET',
          `/assets/upload-url?mimeType=image/png&objectKey=${objectKey}&assetKind=blueprintAsset`,
          token,
        );
        const form = new FormData();
        form.set('file', new File([new Uint8Array(slow)], objectKey, { type: 'image/png' }));
        form.set('uploadUrl', grant.body.url!);
        form.set('quality', '85');
        const res = await fetch(`http://127.0.0.1:${port}/api/image-jobs`, {
          method: 'POST',
          body: form,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(201);
        const { jobId } = (await res.json()) as { jobId: string };
        jobs.push({ token, jobId, publicUrl: grant.body.publicUrl! });
      }
    }
    // Every job completes, seen alike from either server.
    for (const [i, job] of jobs.entries()) {
      let status = 'pending';
      let answer: Record<string, string> = {};
      for (let tries = 0; status === 'pending' && tries < 600; tries++) {
        await new Promise((r) => setTimeout(r, 100));
        answer = (await api(servers[i % 2]!, 'GET', `/image-jobs/${job.jobId}`, job.token)).body;
        status = answer.status!;
      }
      expect(answer).toMatchObject({ status: 'complete', url: job.publicUrl });
      const other = await api(servers[(i + 1) % 2]!, 'GET', `/image-jobs/${job.jobId}`, job.token);
      expect(other.body).toMatchObject({ status: 'complete', url: job.publicUrl });
      expect(existsSync(join(dataDir, job.publicUrl.replace('/media/', 'media/')))).toBe(true);
    }
    // Each job was claimed once, and both servers' workers did some.
    const client = new pg.Client({ connectionString: created.url });
    await client.connect();
    try {
      const { rows } = await client.query<{
        key: string;
        status: string;
        attempts: number;
        locked_by: string;
      }>(`select key, status, attempts, locked_by from jobs where kind = 'image.optimize'`);
      expect(rows.map((r) => r.key).sort()).toEqual(jobs.map((j) => j.jobId).sort());
      for (const row of rows) expect(row).toMatchObject({ status: 'done', attempts: 1 });
      expect(new Set(rows.map((r) => r.locked_by)).size).toBe(2);
      const inputs = await client.query(`select count(*)::int as n from image_jobs where input is not null`);
      expect(inputs.rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
    for (const child of [a.child, b.child]) {
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    }
  }, 180_000);
});
