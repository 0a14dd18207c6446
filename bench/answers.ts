/**
 * The HTTP layer's own cost (`npx tsx bench/answers.ts`): answers that touch no database, over one
 * kept-alive connection, as a bare client asks (no Accept-Encoding) and as a browser asks (gzip,
 * deflate, br, zstd): a small JSON answer (GET /api/health, what every poll tick's answer costs
 * besides its queries) and the OpenAPI document (made and compressed once). p50/p99 of 5,000 each,
 * taken in turn; the client is node:http in this process, so its own reading is counted too.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDb } from '../server/db';
import { percentile } from './checkout';

const BROWSER = 'gzip, deflate, br, zstd';

export async function answerTimes(n = 5000) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-'));
  const config = loadConfig({
    VITRINE_DATA_DIR: dataDir,
    DATABASE_URL: 'memory://',
    NODE_ENV: 'production',
    FLOW_EMULATOR: 'off',
    VITRINE_SEED: 'off',
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256',
  });
  const database = await openDb(config);
  const app = createApp({ config, database, log: { info() {}, error: console.error } });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  /** GETs the path and reads the whole answer; resolves with its encoding and size on the wire. */
  const get = (path: string, encoding?: string) =>
    new Promise<{ sentAs: string; bytes: number }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path, agent, headers: encoding ? { 'accept-encoding': encoding } : {} },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on('end', () =>
            res.statusCode === 200
              ? resolve({ sentAs: String(res.headers['content-encoding'] ?? 'none'), bytes })
              : reject(new Error(`${path}: ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  const cases = [
    { name: 'small JSON answer', path: '/api/health', encoding: undefined },
    { name: 'small JSON answer', path: '/api/health', encoding: BROWSER },
    { name: 'OpenAPI document', path: '/api/openapi.json', encoding: undefined },
    { name: 'OpenAPI document', path: '/api/openapi.json', encoding: BROWSER },
  ];
  try {
    const times = cases.map(() => [] as number[]);
    const sent = await Promise.all(cases.map((c) => get(c.path, c.encoding)));
    for (let i = 0; i < n + 500; i++) {
      for (const [k, c] of cases.entries()) {
        const t = performance.now();
        await get(c.path, c.encoding);
        if (i >= 500) times[k]!.push(performance.now() - t);
      }
    }
    return cases.map((c, k) => ({
      ...c,
      ...sent[k]!,
      p50: percentile(times[k]!, 50),
      p99: percentile(times[k]!, 99),
    }));
  } finally {
    agent.destroy();
    server.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printAnswers(rows: Awaited<ReturnType<typeof answerTimes>>) {
  console.log('API answers over one kept-alive connection, no database (HTTP layer only):');
  for (const r of rows) {
    console.log(
      `  ${r.name} ${r.path}, ${r.encoding ? 'as a browser asks' : 'no Accept-Encoding'}: p50 ${r.p50.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms (${r.bytes} bytes, encoding ${r.sentAs})`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printAnswers(await answerTimes(Number(process.argv[2] ?? 5000)));
}
