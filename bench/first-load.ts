/**
 * First loads as a person on a mid-range phone sees them: a fresh `npm start` world (seeded, built
 * SPA), headless Chromium with the CPU slowed 4× and a 9 Mbps / 40 ms network, each page loaded
 * `runs` times with an empty cache. Reports the medians of LCP, CLS (the largest cumulative layout
 * shift), JavaScript and all bytes on the wire (compressed, as sent). Needs `vite build` first.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
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

/** The throttling of issue 15's measurements. */
const CPU_SLOWDOWN = 4;
const NETWORK = {
  offline: false,
  latency: 40,
  downloadThroughput: (9e6 / 8) | 0,
  uploadThroughput: (9e6 / 8) | 0,
};

export interface PageLoad {
  path: string;
  lcpMs: number;
  cls: number;
  jsKb: number;
  totalKb: number;
  requests: number;
}

/** Collects LCP and CLS inside the page from the moment it starts. */
const VITALS_SCRIPT = `
  window.__vitals = { lcp: 0, cls: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__vitals.lcp = e.renderTime || e.loadTime || e.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__vitals.cls += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
`;

async function loadOnce(browser: Browser, origin: string, path: string): Promise<PageLoad> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(VITALS_SCRIPT);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  const types = new Map<string, string>();
  let js = 0;
  let total = 0;
  let requests = 0;
  cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
  cdp.on('Network.loadingFinished', (e) => {
    requests++;
    total += e.encodedDataLength;
    if (types.get(e.requestId) === 'Script') js += e.encodedDataLength;
  });
  // Right after start the server is still making the seeded artwork's image copies: the first
  // (unmeasured) loads may take longer than Playwright's default 30 s.
  await page.goto(`${origin}${path}`, { waitUntil: 'networkidle', timeout: 120_000 });
  // Under the slowed CPU the browser reports paints and shifts well after they happen (seconds after
  // the network is idle), and late shifts count too: wait before reading them.
  await page.waitForTimeout(3000);
  const vitals = (await page.evaluate('window.__vitals')) as { lcp: number; cls: number };
  await context.close();
  return { path, lcpMs: vitals.lcp, cls: vitals.cls, jsKb: js / 1000, totalKb: total / 1000, requests };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

export async function firstLoad(paths: string[], runs = 5): Promise<PageLoad[]> {
  if (!existsSync('dist/index.html')) throw new Error('No build in dist/: run `npx vite build` first');
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-'));
  const server = await start(
    loadConfig({ ...process.env, PORT: '0', VITRINE_DATA_DIR: dataDir, NODE_ENV: 'production' }),
    { log: { info() {}, warn() {}, error: console.error } as never },
  );
  await server.ready;
  // Measured on a settled server: a fresh one first makes the seeded artwork's resized copies, a
  // minute of work on both cores that would slow the loads measured meanwhile.
  await server.imageCopiesMade();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  const origin = `http://localhost:${server.port}`;
  const results: PageLoad[] = [];
  try {
    // One unmeasured load warms the server (catalog cache, image files in the OS cache).
    for (const path of paths) await loadOnce(browser, origin, path);
    for (const path of paths) {
      const loads: PageLoad[] = [];
      for (let i = 0; i < runs; i++) loads.push(await loadOnce(browser, origin, path));
      results.push({
        path,
        lcpMs: median(loads.map((l) => l.lcpMs)),
        cls: median(loads.map((l) => l.cls)),
        jsKb: median(loads.map((l) => l.jsKb)),
        totalKb: median(loads.map((l) => l.totalKb)),
        requests: median(loads.map((l) => l.requests)),
      });
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

/** Issue 15's targets. */
export const TARGETS = { lcpMs: 1200, cls: 0.05, homeJsKb: 110, marketplaceTotalKb: 400 };

const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');

export function printFirstLoad(results: PageLoad[]): void {
  console.log(`first load, CPU ${CPU_SLOWDOWN}× slower, 9 Mbps / 40 ms, median of 5 cold loads:`);
  for (const r of results) {
    const figures = [
      `LCP ${r.lcpMs.toFixed(0)} ms (target ≤ ${TARGETS.lcpMs}: ${mark(r.lcpMs <= TARGETS.lcpMs)})`,
      `CLS ${r.cls.toFixed(3)} (target ≤ ${TARGETS.cls}: ${mark(r.cls <= TARGETS.cls)})`,
      r.path === '/'
        ? `JS ${r.jsKb.toFixed(1)} kB (target ≤ ${TARGETS.homeJsKb}: ${mark(r.jsKb <= TARGETS.homeJsKb)})`
        : `JS ${r.jsKb.toFixed(1)} kB`,
      r.path === '/marketplace'
        ? `all ${r.totalKb.toFixed(1)} kB (target ≤ ${TARGETS.marketplaceTotalKb}: ${mark(r.totalKb <= TARGETS.marketplaceTotalKb)})`
        : `all ${r.totalKb.toFixed(1)} kB`,
      `${r.requests} requests`,
    ];
    console.log(`  ${r.path.padEnd(16)} ${figures.join(' · ')}`);
  }
}

export const FIRST_LOAD_PAGES = ['/', '/marketplace', '/s/aria-sounds'];

if (import.meta.url === `file://${process.argv[1]}`) {
  printFirstLoad(await firstLoad(FIRST_LOAD_PAGES));
}
