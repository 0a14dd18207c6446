import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storefronts } from '../../server/db/schema';
import { insertBlueprint, insertStorefront } from '../../server/seed/factory';
import { refreshStats, STATS_REFRESH_MS } from '../../server/stats/refresh';
import { renderPage } from '../../src/entry-server';
import { databases, register, useTestApp } from './support/harness';
import { sale } from './support/sales';

const ORIGIN = 'https://vitrine.example';
/** index.html's own title and description, which every rendered page's replace. */
const GENERIC = 'Generic';

/** Text of HTML with its entities read (React writes &amp; &quot; &#x27; &lt; &gt;). */
const text = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The page's head as a crawler reads it: its title, meta by name or property, links by rel, JSON-LD. */
function headOf(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  const attr = (tag: string, name: string) => {
    const value = new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
    return value === undefined ? undefined : text(value);
  };
  /** The tags of a kind, grouped by one attribute, each with another's value. */
  const grouped = (pattern: RegExp, keys: string[], value: string) => {
    const out: Record<string, string[]> = {};
    for (const [tag] of head.matchAll(pattern)) {
      const key = keys.map((k) => attr(tag, k)).find((k) => k !== undefined);
      if (key !== undefined) out[key] = [...(out[key] ?? []), attr(tag, value) ?? ''];
    }
    return out;
  };
  const meta = grouped(/<meta [^>]*>/g, ['name', 'property'], 'content');
  const links = grouped(/<link [^>]*>/g, ['rel'], 'href');
  const titles = [...head.matchAll(/<title\b[^>]*>([^<]*)<\/title>/g)].map((m) => text(m[1]!));
  const jsonLd = [...html.matchAll(/<script\b[^>]*type="application\/ld\+json"[^>]*>(.*?)<\/script>/gs)].map(
    (m) => JSON.parse(m[1]!),
  );
  return { titles, meta, links, jsonLd };
}

/** The link-preview tags every public page carries: one of each, on the canonical origin. */
function expectPreviewTags(html: string, path: string) {
  const { titles, meta, links } = headOf(html);
  expect(titles, path).toHaveLength(1);
  expect(titles[0]).not.toBe(GENERIC);
  expect(meta.description, path).toHaveLength(1);
  expect(meta.description![0]).not.toBe(GENERIC);
  expect(meta.description![0]!.length).toBeGreaterThan(20);
  expect(links.canonical, path).toEqual([`${ORIGIN}${path}`]);
  expect(meta['og:url'], path).toEqual([`${ORIGIN}${path}`]);
  expect(meta['og:title'], path).toEqual(titles);
  expect(meta['og:description'], path).toEqual(meta.description);
  expect(meta['og:image']![0], path).toMatch(new RegExp(`^${ORIGIN}/og`));
  expect(meta['og:image:width'], path).toEqual(['1200']);
  expect(meta['og:image:height'], path).toEqual(['630']);
  expect(meta['og:type'], path).toHaveLength(1);
  expect(meta['twitter:card'], path).toEqual(['summary_large_image']);
  expect(meta.robots, path).toBeUndefined();
}

/** The app's script and a preload of its chunk, in the head, as the build writes them. */
const SCRIPTS =
  '<script type="module" crossorigin src="/assets/index-abc.js"></script><link rel="modulepreload" crossorigin href="/assets/def.js">';

/**
 * The public pages as the server answers them (server/spa.ts with the real renderer,
 * src/entry-server.tsx): items and storefronts rendered with their data, every page with its own
 * head (title, description, canonical link, Open Graph, Twitter card, JSON-LD for items and
 * storefronts) and a 404 with the Not Found page for what a visitor cannot see.
 */
describe.each(databases)('public pages rendered on the server, on %s', (database) => {
  const root = mkdtempSync(join(tmpdir(), 'vitrine-pages-'));
  const spaDir = join(root, 'dist');
  mkdirSync(spaDir, { recursive: true });
  // index.html as the build writes it: a generic title and description the page's own replace.
  writeFileSync(
    join(spaDir, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><meta name="description" content="${GENERIC}" /><title>${GENERIC}</title>${SCRIPTS}</head><body><div id="root"></div></body></html>`,
  );
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const t = useTestApp(
    database,
    { production: true, nodeEnv: 'production', publicUrl: ORIGIN },
    { spaDir, renderPage },
  );
  const w: Record<string, string> = {};
  const page = async (path: string) => {
    const res = await t.request('GET', path);
    return { status: res.status, html: res.body as string };
  };

  beforeAll(async () => {
    const db = t.database.db;
    const owner = await register(t);
    const shop = await insertStorefront(db, {
      ownerId: owner.id,
      name: 'Brush & Pixel',
      vanityUrl: 'brush-pixel',
      description: 'Hand-drawn harbours and neon nights, one edition at a time.',
    });
    const item = await insertBlueprint(db, {
      storefrontId: shop.id,
      title: 'Harbor Lights',
      description: 'A harbour at dusk.',
      price: 2550,
      quantity: 10,
      quantityAvailable: 4,
    });
    const soldOut = await insertBlueprint(db, {
      storefrontId: shop.id,
      title: 'Neon Harbor',
      price: 12_000,
      quantity: 5,
      quantityAvailable: 0,
      state: 'soldOut',
    });
    const draft = await insertBlueprint(db, {
      storefrontId: shop.id,
      title: 'Draft',
      price: 100,
      quantity: 1,
      state: 'created',
    });
    const hiddenItem = await insertBlueprint(db, {
      storefrontId: shop.id,
      title: 'Hidden',
      price: 100,
      quantity: 1,
      visible: false,
    });
    const disabled = await insertStorefront(db, {
      ownerId: (await register(t)).id,
      name: 'Ghost',
      vanityUrl: 'ghost-shop',
      enabled: false,
    });
    const offline = await insertBlueprint(db, {
      storefrontId: disabled.id,
      title: 'Offline',
      price: 100,
      quantity: 1,
    });
    // Suspended by an administrator (which disables it too).
    const banned = await insertStorefront(db, {
      ownerId: (await register(t)).id,
      name: 'Banned',
      vanityUrl: 'banned-shop',
    });
    await db
      .update(storefronts)
      .set({ suspended: true, enabled: false })
      .where(eq(storefronts.id, banned.id));
    const owned = await sale(t, item, { serial: 3, amount: 2550, purchasedOn: new Date() });
    Object.assign(w, {
      item: item.id,
      soldOut: soldOut.id,
      draft: draft.id,
      hiddenItem: hiddenItem.id,
      offline: offline.id,
      nft: owned.nftId,
    });
  });

  it('gives every public page its own title, description, canonical URL and link-preview tags', async () => {
    for (const path of ['/', '/marketplace', '/storefronts', '/creators', '/drops', '/terms', '/privacy']) {
      const { status, html } = await page(path);
      expect(status, path).toBe(200);
      expectPreviewTags(html, path);
      expect(headOf(html).meta['og:image'], path).toEqual([`${ORIGIN}/og.png`]);
    }
    expect(headOf((await page('/marketplace?min=10')).html).links.canonical).toEqual([
      `${ORIGIN}/marketplace`,
    ]);
  });

  it('renders an item page at /nft/{id} with its data, price and Buy button, and a Product with an Offer', async () => {
    const path = `/nft/${w.item}`;
    const { status, html } = await page(path);
    expect(status).toBe(200);
    expectPreviewTags(html, path);
    const { titles, meta, jsonLd } = headOf(html);
    expect(titles).toEqual(['Harbor Lights · $25.50 · Vitrine']);
    expect(meta.description![0]).toContain('$25.50 · 4 of 10 left');
    expect(meta['og:type']).toEqual(['product']);
    // The versioned share image of the item's answer, which the image route serves for a year.
    const image = meta['og:image']![0]!;
    expect(image).toMatch(new RegExp(`^${ORIGIN}/og/nft/${w.item}\\.png\\?v=[0-9a-f]{16}$`));
    const png = await t.request('GET', image.slice(ORIGIN.length));
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(jsonLd).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: 'Harbor Lights',
        description: 'A harbour at dusk.',
        url: `${ORIGIN}${path}`,
        image,
        brand: { '@type': 'Brand', name: 'Brush & Pixel' },
        offers: {
          '@type': 'Offer',
          price: '25.50',
          priceCurrency: 'USD',
          availability: 'https://schema.org/InStock',
          url: `${ORIGIN}${path}`,
        },
      },
    ]);
    // The page itself, before any script: its title, price and Buy button, and the answers it was
    // made from, which the browser reads instead of asking again.
    const body = html.slice(html.indexOf('<div id="root" inert>'));
    expect(body).toContain('<h1 class="vt-page__title">Harbor Lights');
    expect(body).toContain('$25.50');
    expect(body).toMatch(/<button[^>]*><span class="vt-button__label">Buy now · \$25.50<\/span><\/button>/);
    const answers = JSON.parse(
      /<script type="application\/json" id="vt-first-load">(.*?)<\/script>/s.exec(html)![1]!,
    );
    expect(Object.keys(answers)).toContain(`/api/blueprints/${w.item}`);
  });

  it('says SoldOut in the Offer of an item with no edition left', async () => {
    const { status, html } = await page(`/nft/${w.soldOut}`);
    expect(status).toBe(200);
    const [product] = headOf(html).jsonLd;
    expect(product.offers).toMatchObject({ price: '120.00', availability: 'https://schema.org/SoldOut' });
    expect(headOf(html).meta.description![0]).toMatch(/^\$120 · Sold out\./);
  });

  it('puts the app’s script after the page’s content: the browser fetches the pictures it shows first', async () => {
    const { html } = await page(`/nft/${w.item}`);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).not.toContain('<script type="module"');
    expect(head).not.toContain('modulepreload');
    const body = html.slice(html.indexOf('<body>'));
    expect(body.indexOf(SCRIPTS)).toBeGreaterThan(body.indexOf('id="vt-first-load"'));
    expect(body.match(/<script type="module"/g)).toHaveLength(1);
  });

  it('renders the tabs and an owned NFT, each naming /nft/{id} as its canonical URL', async () => {
    for (const path of [`/nft/${w.item}/details`, `/nft/${w.item}/history`]) {
      const { status, html } = await page(path);
      expect(status, path).toBe(200);
      expect(headOf(html).links.canonical, path).toEqual([`${ORIGIN}/nft/${w.item}`]);
      // The History tab's list, whose code loads with the tab, is in the server's page too.
      if (path.endsWith('/history')) expect(html).toMatch(/<ol class="vt-history" aria-label="History">/);
    }
    const { status, html } = await page(`/nft/${w.nft}`);
    expect(status).toBe(200);
    expectPreviewTags(html, `/nft/${w.nft}`);
    expect(headOf(html).titles).toEqual(['Harbor Lights #03 · Vitrine']);
    expect(html).toContain('Not for sale');
  });

  it('renders a storefront with its items and a CollectionPage', async () => {
    const path = '/s/brush-pixel';
    const { status, html } = await page(path);
    expect(status).toBe(200);
    expectPreviewTags(html, path);
    const { titles, meta, jsonLd } = headOf(html);
    expect(titles).toEqual(['Brush & Pixel · Vitrine']);
    expect(meta.description).toEqual(['Hand-drawn harbours and neon nights, one edition at a time.']);
    const image = meta['og:image']![0]!;
    expect(image).toMatch(new RegExp(`^${ORIGIN}/og/s/brush-pixel\\.png\\?v=[0-9a-f]{16}$`));
    const png = await t.request('GET', image.slice(ORIGIN.length));
    expect(png.status).toBe(200);
    expect(png.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(jsonLd).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'CollectionPage',
        name: 'Brush & Pixel',
        description: 'Hand-drawn harbours and neon nights, one edition at a time.',
        url: `${ORIGIN}${path}`,
        image,
        numberOfItems: 2,
      },
    ]);
    expect(html).toContain('Harbor Lights');
  });

  it('renders Home’s trending lists and the storefront’s stats bar as the last stats refresh counted', async () => {
    await refreshStats(t.database.db, t.clock.now());
    // Home keeps its lists for a minute: the next minute's show the refresh.
    t.clock.advance(STATS_REFRESH_MS);
    const home = (await page('/')).html;
    const trending = home.slice(home.indexOf('Trending now'), home.indexOf('Top storefronts this week'));
    expect(trending).toContain('Harbor Lights');
    expect(trending).toContain('$25.50');
    expect(home.slice(home.indexOf('Top storefronts this week'))).toContain('Brush &amp; Pixel');
    const store = (await page('/s/brush-pixel')).html;
    expect(store).toContain('<dt>All-time volume</dt><dd>$25.50</dd>');
    expect(store).toContain('<dt>Floor</dt><dd>$25.50</dd>');
  });

  it('answers 404 with the Not Found page, left out of search engines, for what a visitor cannot see', async () => {
    for (const path of [
      '/s/no-such-shop',
      '/s/ghost-shop',
      '/s/banned-shop',
      `/nft/${w.draft}`,
      `/nft/${w.hiddenItem}`,
      `/nft/${w.offline}`,
      '/nft/00000000-0000-4000-8000-000000000000',
      '/nft/999999999',
      '/no-such-page',
    ]) {
      const { status, html } = await page(path);
      expect(status, path).toBe(404);
      expect(html, path).toContain('data-testid="not-found"');
      const { titles, meta, links, jsonLd } = headOf(html);
      expect(titles, path).toEqual(['Page not found · Vitrine']);
      expect(meta.robots, path).toEqual(['noindex']);
      expect(links.canonical, path).toBeUndefined();
      expect(jsonLd, path).toEqual([]);
    }
  });
});
