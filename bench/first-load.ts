/**
 * First-load JS per page: every script the browser fetches to show the page (entry, preloads and
 * the route's lazy chunks), gzip-compressed as a server would send it. Needs `vite build` first.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { loadConfig } from '../server/config';
import { start } from '../server/start';

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function firstLoad(
  paths: string[],
): Promise<Array<{ path: string; files: number; gzipKb: number }>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-'));
  const server = await start(
    loadConfig({ ...process.env, PORT: '0', VITRINE_DATA_DIR: dataDir, NODE_ENV: 'production' }),
    { log: { info() {}, warn() {}, error: console.error } as never },
  );
  await server.ready;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  const results = [];
  try {
    for (const path of paths) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on('response', (r) => {
        const url = new URL(r.url());
        if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
      });
      await page.goto(`http://localhost:${server.port}${path}`, { waitUntil: 'networkidle' });
      let bytes = 0;
      for (const script of scripts) bytes += gzipSync(readFileSync(join('dist', script))).length;
      results.push({ path, files: scripts.size, gzipKb: Math.round((bytes / 1024) * 10) / 10 });
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await firstLoad(['/', '/marketplace', '/auth/connect'])) {
    console.log(`first-load JS ${r.path}: ${r.gzipKb} kB gzip in ${r.files} files`);
  }
}
