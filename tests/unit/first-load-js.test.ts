/**
 * The JavaScript a first load of each public page fetches, read from the production build in dist/
 * (`npm test` builds it first): index.html's entry script, the route's screen (the chunk of the
 * module its route file loads with import()), and every chunk those import statically, each
 * counted as the .br file the server sends. Code a page loads later (a dialog, the checkout on the
 * first Buy, a loader's flows) is not counted here: the first rule keeps it out.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const dist = resolve('dist');
const assets = join(dist, 'assets');

/**
 * The six public pages of issue 38, each with the screen module its route loads (src/routes): its
 * route file's import(), or for /nft/{id} the item page its loader fetches (src/views/nft/NftRoute).
 */
const PAGES = {
  '/': 'src/views/pages/HomePage.tsx',
  '/marketplace': 'src/views/catalog/MarketplacePage.tsx',
  '/storefronts': 'src/views/catalog/BrowseStorefrontsPage.tsx',
  '/s/{vanityUrl}': 'src/views/catalog/StorefrontPage.tsx',
  '/nft/{id}': 'src/views/catalog/ItemPage.tsx',
  '/creators': 'src/views/pages/CreatorsPage.tsx',
} as const;

/**
 * The most a page's first load may fetch, in kB (brotli, as sent): each page is held at what it
 * loads now with 0.3 kB to spare for a build's noise (97.2, 100.3, 102.6, 103.6, 101.1 and 93.6 kB),
 * every one within issue 38's target of 110 kB (TARGET_KB). The framework alone (React DOM 18,
 * TanStack Router, XState and @xstate/react, bundled bare) is 78.2 kB; React DOM 19 would add
 * 19.4 kB to every page. The item page loaded 190.5 kB before its checkout became lazy.
 */
const BUDGET_KB: Record<keyof typeof PAGES, number> = {
  '/': 97.5,
  '/marketplace': 100.6,
  '/storefronts': 102.9,
  '/s/{vanityUrl}': 103.9,
  '/nft/{id}': 101.4,
  '/creators': 93.9,
};

/** Issue 38's target for the first-load JavaScript of every public page. */
const TARGET_KB = 110;

/** Code that loads on the first Buy or wallet action, never with a page. */
const LATER = [
  /\/src\/views\/checkout\//,
  /\/src\/flows(\.ts|\/)/,
  /\/src\/services\/(cards|wallets|crypto|evm|wert|balance|checkout|flow)\.ts$/,
  /\/machines\/(checkout|cardPayment|cryptoPayment|balancePayment|onrampPayment|walletPayment|tokenCharge|buyListing|listForSale|removeListing|transferNfts|makeOffer|acceptOffer|cancelOffer)(\.ts|\/)/,
  /\/node_modules\/(@onflow|ethers|card-validator|libphonenumber-js|@wert-io)\//,
];

interface Chunk {
  imports: string[];
  bytes: number;
  modules: string[];
}

function readChunks(): Map<string, Chunk> {
  const chunks = new Map<string, Chunk>();
  for (const file of readdirSync(assets).filter((f) => f.endsWith('.js'))) {
    const code = readFileSync(join(assets, file), 'utf8');
    // Static imports and re-exports of the bundler's output: `import{a as b}from"./x.js"`, `import"./x.js"`.
    const imports = [
      ...code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{},\s]*?from\s*)?"\.\/([\w-]+\.js)"/g),
    ];
    const br = join(assets, `${file}.br`);
    // The bundler's own helpers (the preload function) have no source map.
    const mapFile = join(assets, `${file}.map`);
    const map = existsSync(mapFile)
      ? (JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[] })
      : { sources: [] };
    chunks.set(file, {
      imports: [...new Set(imports.map((m) => m[1]!))],
      bytes: statSync(existsSync(br) ? br : join(assets, file)).size,
      modules: map.sources.map((s) => resolve(assets, s)),
    });
  }
  return chunks;
}

function closure(chunks: Map<string, Chunk>, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !chunks.has(file)) return;
    seen.add(file);
    for (const next of chunks.get(file)!.imports) visit(next);
  };
  for (const root of roots) visit(root);
  return seen;
}

/** The chunks of a page's first load: the entry's, and its screen's. */
function firstLoad(chunks: Map<string, Chunk>, screenModule: string) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const entry = html.match(/<script type="module"[^>]*src="\/assets\/([\w-]+\.js)"/)![1]!;
  const module = resolve(screenModule);
  const screen = [...chunks].find(([, chunk]) => chunk.modules.includes(module))?.[0];
  if (!screen) throw new Error(`no chunk of the build holds ${module}`);
  const files = closure(chunks, [entry, screen]);
  const kb = [...files].reduce((sum, f) => sum + chunks.get(f)!.bytes, 0) / 1000;
  const modules = [...files].flatMap((f) => chunks.get(f)!.modules);
  return { kb, modules };
}

describe('first-load JavaScript of the public pages (production build)', () => {
  if (!existsSync(join(dist, 'index.html')))
    throw new Error('No build in dist/: run `npm run build` first (npm test does)');
  const chunks = readChunks();

  it.each(Object.entries(PAGES))('%s carries no checkout, wallet or chain code', (_, screen) => {
    const later = firstLoad(chunks, screen).modules.filter((m) => LATER.some((r) => r.test(m)));
    expect(later).toEqual([]);
  });

  it.each(Object.entries(PAGES))('%s stays within its budget, and the target', (page, screen) => {
    const { kb } = firstLoad(chunks, screen);
    const budget = BUDGET_KB[page as keyof typeof PAGES];
    expect(budget).toBeLessThanOrEqual(TARGET_KB);
    expect(kb).toBeLessThanOrEqual(budget);
  });
});
