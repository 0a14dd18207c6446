/**
 * First loads as a person on a mid-range phone sees them: a fresh `npm start` world (seeded, built
 * SPA), headless Chromium with the CPU slowed 4× and a 9 Mbps / 40 ms network, each page loaded
 * `runs` times with an empty cache. Reports the medians of LCP, CLS (the largest cumulative layout
 * shift), JavaScript and all bytes on the wire (compressed, as sent), each beside issue 38's target.
 * Beside each page, its floor: the same page's final HTML (its DOM once loaded, without scripts)
 * served as a static file with its assets, loaded the same way in the same run (no server work, no
 * JavaScript), and the ratio LCP / floor. Then the item page's Buy, by a visitor (who is asked to
 * sign in) and by a signed-in buyer (the checkout): from the press to the first dialog on screen,
 * for the buyer also to the first choice (the payment methods or the editions), and the press's
 * INP-style duration (Event Timing). Needs `npm run build` first.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  /** The floor's LCP: the page's final HTML as a static file with its assets. */
  floorLcpMs?: number;
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

/** A fresh browser context and page, slowed as a mid-range phone on a 9 Mbps line. */
async function throttledPage(browser: Browser, script: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(script);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return { context, page, cdp };
}

async function loadOnce(
  browser: Browser,
  origin: string,
  path: string,
): Promise<PageLoad & { html: string }> {
  const { context, page, cdp } = await throttledPage(browser, VITALS_SCRIPT);
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
  // The page as it ended, without its scripts and live: what the floor serves.
  const html = (await page.evaluate(`(() => {
    const doc = document.documentElement.cloneNode(true);
    for (const s of doc.querySelectorAll('script, link[rel="modulepreload"]')) s.remove();
    doc.querySelector('#root')?.removeAttribute('inert');
    return '<!doctype html>' + doc.outerHTML;
  })()`)) as string;
  await context.close();
  return { path, lcpMs: vitals.lcp, cls: vitals.cls, jsKb: js / 1000, totalKb: total / 1000, requests, html };
}

/**
 * The floor of a page: its final HTML as a static file at its own path, every other request (styles,
 * images, fonts) passed to the app's server, which sends those files from disk as they are.
 */
async function floorServer(origin: string, pages: Map<string, string>): Promise<Server> {
  const target = new URL(origin);
  const server = createServer((req, res) => {
    const html = pages.get(req.url ?? '');
    if (html !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return res.end(html);
    }
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/**
 * Records the press of Buy: its Event Timing durations, when a dialog first shows after it, and when
 * the checkout's first choice shows (its payment methods or its editions).
 */
const BUY_SCRIPT = `
  window.__buy = { durations: [], pressedAt: 0, panelAt: 0, choiceAt: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.interactionId) window.__buy.durations.push(e.duration);
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  addEventListener('pointerdown', (e) => { window.__buy.pressedAt ||= e.timeStamp; }, true);
  new MutationObserver(() => {
    const b = window.__buy;
    if (!b.pressedAt) return;
    // Each is on screen at the paint after it was added: the frame after the next.
    const shown = (key) => requestAnimationFrame(() => setTimeout(() => { b[key] ||= performance.now(); }));
    if (!b.panelAt && document.querySelector('[role="dialog"]')) shown('panelAt');
    if (!b.choiceAt && document.querySelector('.vt-checkout__methods, .vt-checkout__editions')) shown('choiceAt');
  }).observe(document, { subtree: true, childList: true });
`;

/** How long a person's pointer rests on Buy before pressing it (the checkout's code loads meanwhile). */
const HOVER_MS = 250;

/** The seeded collector who presses Buy signed in (README: seeded accounts). */
const BUYER = { email: 'mina@collectors.vitrine.test', password: 'vitrine-demo' };

interface Press {
  panelMs: number;
  /** Press → the checkout's first choice; NaN when none showed (a visitor's sign-in). */
  choiceMs: number;
  inpMs: number;
}

/**
 * One press of Buy on a cold item page (a visitor's, or signed in as `buyer`, which the page reads
 * for a second before the pointer heads for Buy): press → first dialog on screen, → the
 * checkout's first choice, and the press's INP.
 */
async function buyOnce(browser: Browser, origin: string, path: string, buyer?: typeof BUYER): Promise<Press> {
  const { context, page } = await throttledPage(browser, BUY_SCRIPT);
  if (buyer) {
    // Signed in as the app is after a sign-in: its session token kept in the browser's storage.
    const login = await context.request.post(`${origin}/api/auth/logins`, { data: buyer });
    if (!login.ok()) throw new Error(`signing in as ${buyer.email}: ${login.status()}`);
    const { authToken } = (await login.json()) as { authToken: string };
    await page.addInitScript(`localStorage.setItem('vitrine.token', ${JSON.stringify(authToken)})`);
  }
  await page.goto(`${origin}${path}`, { waitUntil: 'networkidle', timeout: 120_000 });
  await page.waitForTimeout(1000);
  const buy = page.locator('.vt-actions button:not([disabled])').first();
  await buy.hover();
  await page.waitForTimeout(HOVER_MS);
  await buy.click();
  await page.locator('[role="dialog"]').first().waitFor({ timeout: 60_000 });
  if (buyer)
    await page.locator('.vt-checkout__methods, .vt-checkout__editions').first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1000);
  const r = (await page.evaluate('window.__buy')) as {
    durations: number[];
    pressedAt: number;
    panelAt: number;
    choiceAt: number;
  };
  await context.close();
  return {
    panelMs: r.panelAt - r.pressedAt,
    choiceMs: r.choiceAt ? r.choiceAt - r.pressedAt : Number.NaN,
    inpMs: Math.max(0, ...r.durations),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

export interface FirstLoadReport {
  pages: PageLoad[];
  /** Buy by a visitor (the sign-in dialog) and by a signed-in buyer (the checkout): medians. */
  buy: { path: string; visitor: Press; buyer: Press };
}

/** The first item on sale of the seeded world: the item page the bench loads. */
async function itemOnSale(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/blueprints?from=1&to=50`);
  const { results } = (await res.json()) as {
    results: { id: string; price: number; quantityAvailable: number }[];
  };
  const item = results.find((b) => b.price > 0 && b.quantityAvailable > 0) ?? results[0];
  if (!item) throw new Error('no item in the seeded world');
  return `/nft/${item.id}`;
}

export async function firstLoad(paths: string[], runs = 5): Promise<FirstLoadReport> {
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
  const item = await itemOnSale(origin);
  const all = paths.map((p) => (p === ITEM_PAGE ? item : p));
  let floor: Server | undefined;
  try {
    // One unmeasured load warms the server (catalog cache, image files in the OS cache) and gives
    // each page's final HTML, which the floor serves.
    const finals = new Map<string, string>();
    for (const path of all) finals.set(path, (await loadOnce(browser, origin, path)).html);
    floor = await floorServer(origin, finals);
    const floorOrigin = `http://127.0.0.1:${(floor.address() as AddressInfo).port}`;
    for (const path of all) {
      const loads: PageLoad[] = [];
      const floors: number[] = [];
      // The page and its floor in turn, so that both see the same moments of a busy machine.
      for (let i = 0; i < runs; i++) {
        loads.push(await loadOnce(browser, origin, path));
        floors.push((await loadOnce(browser, floorOrigin, path)).lcpMs);
      }
      results.push({
        path,
        lcpMs: median(loads.map((l) => l.lcpMs)),
        floorLcpMs: median(floors),
        cls: median(loads.map((l) => l.cls)),
        jsKb: median(loads.map((l) => l.jsKb)),
        totalKb: median(loads.map((l) => l.totalKb)),
        requests: median(loads.map((l) => l.requests)),
      });
    }
    const visitor: Press[] = [];
    const buyer: Press[] = [];
    for (let i = 0; i < runs; i++) {
      visitor.push(await buyOnce(browser, origin, item));
      buyer.push(await buyOnce(browser, origin, item, BUYER));
    }
    const medians = (presses: Press[]): Press => ({
      panelMs: median(presses.map((p) => p.panelMs)),
      choiceMs: median(presses.map((p) => p.choiceMs)),
      inpMs: median(presses.map((p) => p.inpMs)),
    });
    return { pages: results, buy: { path: item, visitor: medians(visitor), buyer: medians(buyer) } };
  } finally {
    floor?.close();
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Issue 38's targets (and issue 15's for the marketplace's bytes). */
export const TARGETS = {
  lcpMs: 800,
  cls: 0.05,
  jsKb: 110,
  lcpOverFloor: 1.25,
  buyPanelMs: 200,
  marketplaceTotalKb: 400,
};

const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');

export function printFirstLoad({ pages, buy }: FirstLoadReport): void {
  console.log(`first load, CPU ${CPU_SLOWDOWN}× slower, 9 Mbps / 40 ms, median of 5 cold loads:`);
  for (const r of pages) {
    const ratio = r.floorLcpMs ? r.lcpMs / r.floorLcpMs : Number.NaN;
    const figures = [
      `LCP ${r.lcpMs.toFixed(0)} ms (target ≤ ${TARGETS.lcpMs}: ${mark(r.lcpMs <= TARGETS.lcpMs)})`,
      `floor ${r.floorLcpMs?.toFixed(0)} ms, LCP/floor ${ratio.toFixed(2)} (target ≤ ${TARGETS.lcpOverFloor}: ${mark(ratio <= TARGETS.lcpOverFloor)})`,
      `CLS ${r.cls.toFixed(3)} (target ≤ ${TARGETS.cls}: ${mark(r.cls <= TARGETS.cls)})`,
      `JS ${r.jsKb.toFixed(1)} kB (target ≤ ${TARGETS.jsKb}: ${mark(r.jsKb <= TARGETS.jsKb)})`,
      r.path === '/marketplace'
        ? `all ${r.totalKb.toFixed(1)} kB (target ≤ ${TARGETS.marketplaceTotalKb}: ${mark(r.totalKb <= TARGETS.marketplaceTotalKb)})`
        : `all ${r.totalKb.toFixed(1)} kB`,
      `${r.requests} requests`,
    ];
    console.log(`  ${r.path.padEnd(16)} ${figures.join(' · ')}`);
  }
  const { visitor, buyer } = buy;
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const target = (x: number) => `(target ≤ ${TARGETS.buyPanelMs}: ${mark(x <= TARGETS.buyPanelMs)})`;
  console.log(
    `  Buy on ${buy.path} (pointer on it ${HOVER_MS} ms, then pressed), a visitor: the sign-in dialog on screen ${ms(visitor.panelMs)} after the press ${target(visitor.panelMs)}, the press's INP ${ms(visitor.inpMs)} ${target(visitor.inpMs)}`,
  );
  console.log(
    `  the same, signed in (${BUYER.email}): the checkout's first panel on screen ${ms(buyer.panelMs)} after the press ${target(buyer.panelMs)}, its first choice (payment methods or editions) ${ms(buyer.choiceMs)}, the press's INP ${ms(buyer.inpMs)} ${target(buyer.inpMs)}`,
  );
}

/** Stands for the seeded world's first item on sale (its id is known once the server runs). */
const ITEM_PAGE = '/nft/{item}';

export const FIRST_LOAD_PAGES = [
  '/',
  '/marketplace',
  '/storefronts',
  '/s/aria-sounds',
  ITEM_PAGE,
  '/creators',
];

if (import.meta.url === `file://${process.argv[1]}`) {
  printFirstLoad(await firstLoad(FIRST_LOAD_PAGES));
}
