import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createStorage } from '../../server/storage/config';
import type { S3Settings } from '../../server/storage/s3';
import { STAGED_PREFIX } from '../../server/storage/storage';
import { openTestDatabase } from './support/harness';
import { withSeaweed } from './support/seaweed';

/**
 * Two server processes on one PostgreSQL and one media store, as behind a load balancer: one
 * media directory (a volume both mount), or one S3 bucket (SeaweedFS). Image jobs asked of either
 * are shared by both servers' workers through the jobs table (row locks and leases), and each is
 * done exactly once; each server serves the other's uploads.
 */
const seaweed = withSeaweed();

describe.each(['one media directory', 'one S3 bucket'] as const)(
  'two servers on one PostgreSQL and %s',
  (store) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-servers-'));
    const children: ChildProcess[] = [];
    let drop: (() => Promise<void>) | undefined;
    afterAll(async () => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    });
    let bucket: S3Settings | undefined;
    /** The store's settings, for the servers and for the test's look into the store. */
    const storeEnv = (): Record<string, string> =>
      bucket
        ? {
            STORAGE: 's3',
            S3_ENDPOINT: bucket.endpoint!,
            S3_BUCKET: bucket.bucket,
            S3_REGION: bucket.region,
            S3_ACCESS_KEY_ID: bucket.accessKeyId!,
            S3_SECRET_ACCESS_KEY: bucket.secretAccessKey!,
          }
        : { STORAGE: 'local' };

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
          ...storeEnv(),
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

    it('shares the image jobs of both between both, does each once, and serves each other’s uploads', async () => {
      if (store === 'one S3 bucket') bucket = await seaweed.bucket();
      const storage = createStorage({
        dataDir,
        storage: bucket ? { kind: 's3', s3: bucket } : { kind: 'local' },
      });
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
            `/assets/upload-url?mimeType=image/png&objectKey=${objectKey}&assetKind=blueprintAsset&size=${slow.length}`,
            token,
          );
          const form = new FormData();
          if (grant.body.confirmUrl) {
            // S3: the browser PUTs the file to the bucket; the job reads it from there.
            const put = await fetch(grant.body.url!, {
              method: 'PUT',
              headers: { 'Content-Type': 'image/png' },
              body: new Uint8Array(slow),
            });
            expect(put.status).toBe(200);
            form.set('uploadUrl', grant.body.confirmUrl);
          } else {
            form.set('file', new File([new Uint8Array(slow)], objectKey, { type: 'image/png' }));
            form.set('uploadUrl', grant.body.url!);
          }
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
        // Stored once, the same file from either server.
        const [first, second] = await Promise.all(
          servers.map(async (port) => {
            const res = await fetch(`http://127.0.0.1:${port}${job.publicUrl}`);
            expect(res.status).toBe(200);
            return Buffer.from(await res.arrayBuffer());
          }),
        );
        expect(first!.equals(second!)).toBe(true);
        expect((await storage.read(job.publicUrl.replace('/media/', '')))?.equals(first!)).toBe(true);
      }
      // A plain upload to one server is served by the other, its copies too.
      const owner = jobs[0]!.token;
      const logo = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#0a9396' } })
        .png()
        .toBuffer();
      const grant = await api(
        a.port,
        'GET',
        `/assets/upload-url?mimeType=image/png&objectKey=logo.png&assetKind=storefrontLogo&size=${logo.length}`,
        owner,
      );
      const uploaded = grant.body.confirmUrl
        ? await fetch(grant.body.url!, {
            method: 'PUT',
            headers: { 'Content-Type': 'image/png' },
            body: new Uint8Array(logo),
          }).then(() => fetch(`http://127.0.0.1:${a.port}${grant.body.confirmUrl}`, { method: 'POST' }))
        : await fetch(`http://127.0.0.1:${a.port}${grant.body.url}`, {
            method: 'PUT',
            body: new Uint8Array(logo),
          });
      expect(uploaded.status).toBe(200);
      const fromB = await fetch(`http://127.0.0.1:${b.port}${grant.body.publicUrl}`);
      expect(fromB.status).toBe(200);
      expect(Buffer.from(await fromB.arrayBuffer()).equals(logo)).toBe(true);
      expect((await fetch(`http://127.0.0.1:${b.port}${grant.body.publicUrl}.w320.webp`)).status).toBe(200);
      // The originals waited in the store for their jobs, and are gone from it.
      const waiting: string[] = [];
      for await (const object of storage.list(STAGED_PREFIX)) waiting.push(object.key);
      expect(waiting).toEqual([]);
      storage.close();
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
      } finally {
        await client.end();
      }
      for (const child of [a.child, b.child]) {
        child.kill('SIGTERM');
        const [code] = await once(child, 'exit');
        expect(code).toBe(0);
      }
    }, 180_000);
  },
);
