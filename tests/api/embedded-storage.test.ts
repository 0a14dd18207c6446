import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { start } from '../../server/start';
import { bothDatabases, newAccount, openTestDatabase, silentLog, testConfig } from './support/harness';
import { childProcesses, listeningSockets, outsideAddresses, tryConnect } from './support/sockets';

/**
 * The embedded world with STORAGE=s3 and no S3_ENDPOINT: the server starts SeaweedFS itself (on
 * 127.0.0.1 only, its data in `<dataDir>/seaweed`), makes the bucket, lets browsers of its own
 * origin PUT to it, and stops it with itself; the bucket's files outlive a restart.
 */
describe.each(bothDatabases)('the embedded bucket on %s', (database) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-embedded-bucket-'));
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts SeaweedFS with the server, takes browser uploads from its origin, keeps them, stops with it', async () => {
    const created = await openTestDatabase(database);
    drops.push(created.drop);
    const config = {
      ...testConfig(created.url, dataDir),
      storage: { kind: 's3' as const, embedded: { bucket: 'vitrine-media' } },
    };
    const logged: unknown[][] = [];
    const running = async () => {
      const server = await start(config, { log: silentLog(logged) });
      await server.ready;
      return { server, base: `http://127.0.0.1:${server.port}` };
    };
    const first = await running();
    let publicUrl: string;
    let ports: number[] = [];
    try {
      const [weed] = childProcesses('weed');
      expect(weed).toBeDefined();
      const sockets = listeningSockets(weed!);
      expect(sockets.length).toBeGreaterThanOrEqual(8);
      ports = sockets.map((socket) => socket.port);
      for (const socket of sockets) expect(socket.address, `port ${socket.port}`).toBe('127.0.0.1');
      for (const host of outsideAddresses())
        expect(await tryConnect(host, sockets[0]!.port), `${host}:${sockets[0]!.port}`).toBe('ECONNREFUSED');

      const registered = await fetch(`${first.base}/api/users/registrations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(newAccount()),
      });
      const { authToken } = (await registered.json()) as { authToken: string };
      const logo = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#0a9396' } })
        .png()
        .toBuffer();
      const grant = (await (
        await fetch(
          `${first.base}/api/assets/upload-url?mimeType=image/png&objectKey=logo.png&assetKind=storefrontLogo&size=${logo.length}`,
          { headers: { authorization: `Bearer ${authToken}` } },
        )
      ).json()) as { url: string; headers: Record<string, string>; confirmUrl: string; publicUrl: string };
      expect(grant.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/vitrine-media\/incoming\//);
      // A browser on the app's origin may PUT there (CORS), with the type it must send.
      const preflight = await fetch(grant.url, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://vitrine.test',
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://vitrine.test');
      const elsewhere = await fetch(grant.url, {
        method: 'OPTIONS',
        headers: { origin: 'http://elsewhere.example', 'access-control-request-method': 'PUT' },
      });
      expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
      const put = await fetch(grant.url, {
        method: 'PUT',
        headers: { ...grant.headers, origin: 'http://vitrine.test' },
        body: new Uint8Array(logo),
      });
      expect(put.status).toBe(200);
      expect(put.headers.get('access-control-allow-origin')).toBe('http://vitrine.test');
      const confirmed = await fetch(`${first.base}${grant.confirmUrl}`, { method: 'POST' });
      expect(await confirmed.json()).toEqual({ url: grant.publicUrl });
      publicUrl = grant.publicUrl;
    } finally {
      await first.server.close();
    }
    expect(childProcesses('weed')).toEqual([]);
    // Nor the Unix sockets it leaves in /tmp, named by its ports.
    const left = readdirSync('/tmp').filter((name) => ports.some((port) => name.endsWith(`-${port}.sock`)));
    expect(left).toEqual([]);

    const second = await running();
    try {
      const served = await fetch(`${second.base}${publicUrl}`);
      expect(served.status).toBe(200);
      expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(300);
    } finally {
      await second.server.close();
    }
  }, 120_000);
});
