import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { blueprintPacks, blueprints, storefronts } from '../../server/db/schema';
import { insertBlueprint, insertPack, insertStorefront, insertUser } from '../../server/seed/factory';
import { SITEMAP_PAGE_SIZE, sitemaps } from '../../server/seo/sitemaps';
import { bothDatabases, useTestApp } from './support/harness';

/** The `<loc>` and `<lastmod>` pairs of a sitemap or sitemap index. */
const entries = (xml: string) =>
  [...xml.matchAll(/<loc>([^<]*)<\/loc><lastmod>([^<]*)<\/lastmod>/g)].map(([, loc, lastmod]) => ({
    loc: loc!,
    lastmod: lastmod!,
  }));
const locs = (xml: string) => entries(xml).map((e) => e.loc);

describe('robots.txt', () => {
  const t = useTestApp('pglite');

  it('is text/plain, disallows the API and the signed-in, sign-in and checkout-return pages, and names the sitemap on PUBLIC_URL', async () => {
    const res = await t.app.request('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = (await res.text()).split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const path of [
      '/api/',
      '/admin',
      '/auth',
      '/dashboard',
      '/payouts',
      '/profile',
      '/settings',
      '/create-storefront',
      '/ordercomplete/',
      '/checkoutcomfailed/',
      '/coinbasecanceled/',
    ])
      expect(lines).toContain(`Disallow: ${path}`);
    // Public pages stay open.
    expect(
      lines.filter((l) => /^Disallow: \/(?:nft|s\/|marketplace|storefronts|creators)?$/.test(l)),
    ).toEqual([]);
    expect(lines).toContain('Sitemap: http://vitrine.test/sitemap.xml');
    // Every line is a directive Lighthouse's robots-txt audit knows, or blank.
    for (const line of lines) expect(line).toMatch(/^(?:(?:User-agent|Allow|Disallow|Sitemap): \S+)?$/);
  });
});

describe.each(bothDatabases)('sitemaps on %s', (database) => {
  const t = useTestApp(database);
  const ids: Record<string, string> = {};
  const updated = new Date('2026-03-04T05:06:07.000Z');

  beforeAll(async () => {
    const db = t.database.db;
    const store = async (name: string, extra: { enabled?: boolean } = {}) =>
      insertStorefront(db, {
        ownerId: (await insertUser(db, { email: `${name}@example.com`, username: name, firstName: name })).id,
        name,
        vanityUrl: name,
        ...extra,
      });
    const open = await store('open-shop');
    const closed = await store('closed-shop', { enabled: false });
    const suspended = await store('suspended-shop', { enabled: false });
    await db.update(storefronts).set({ suspended: true }).where(eq(storefronts.id, suspended.id));
    await db.update(storefronts).set({ updatedAt: updated }).where(eq(storefronts.id, open.id));
    const item = (storefrontId: string, title: string, extra = {}) =>
      insertBlueprint(db, { storefrontId, title, price: 100, quantity: 5, ...extra }).then((b) => b.id);
    ids.listed = await item(open.id, 'Listed');
    ids.soldOut = await item(open.id, 'Sold out', { state: 'soldOut', quantityAvailable: 0 });
    ids.draft = await item(open.id, 'Draft', { state: 'created' });
    ids.hidden = await item(open.id, 'Hidden', { visible: false });
    ids.ofClosed = await item(closed.id, 'Of a closed shop');
    ids.ofSuspended = await item(suspended.id, 'Of a suspended shop');
    await db.update(blueprints).set({ updatedAt: updated }).where(eq(blueprints.id, ids.listed));
    const pack = (storefrontId: string, title: string, extra = {}) =>
      insertPack(db, { storefrontId, title, price: 500, quantity: 3, ...extra }).then((p) => p.id);
    ids.pack = await pack(open.id, 'Pack');
    ids.draftPack = await pack(open.id, 'Draft pack', { state: 'created' });
    ids.hiddenPack = await pack(open.id, 'Hidden pack');
    await db.update(blueprintPacks).set({ visible: false }).where(eq(blueprintPacks.id, ids.hiddenPack));
    ids.packOfClosed = await pack(closed.id, 'Pack of a closed shop');
  });

  it('answers /sitemap.xml with an index of the pages, items and storefronts sitemaps on PUBLIC_URL', async () => {
    const res = await t.app.request('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    expect(locs(xml)).toEqual([
      'http://vitrine.test/sitemaps/pages.xml',
      'http://vitrine.test/sitemaps/items-1.xml',
      'http://vitrine.test/sitemaps/packs-1.xml',
      'http://vitrine.test/sitemaps/storefronts-1.xml',
    ]);
    for (const { lastmod } of entries(xml)) expect(lastmod).toMatch(/^\d{4}-\d\d-\d\d/);
  });

  it('lists only what a visitor can see, each with the day its row last changed', async () => {
    const items = entries(await (await t.app.request('/sitemaps/items-1.xml')).text());
    expect(items.map((e) => e.loc).sort()).toEqual(
      [ids.listed, ids.soldOut].map((id) => `http://vitrine.test/nft/${id}`).sort(),
    );
    const packs = locs(await (await t.app.request('/sitemaps/packs-1.xml')).text());
    expect(packs).toEqual([`http://vitrine.test/nft/${ids.pack}`]);
    expect(items.find((e) => e.loc.endsWith(ids.listed!))!.lastmod).toBe(updated.toISOString());
    const stores = entries(await (await t.app.request('/sitemaps/storefronts-1.xml')).text());
    expect(stores).toEqual([{ loc: 'http://vitrine.test/s/open-shop', lastmod: updated.toISOString() }]);
    const pages = locs(await (await t.app.request('/sitemaps/pages.xml')).text());
    expect(pages).toEqual(
      ['/', '/marketplace', '/storefronts', '/creators', '/privacy', '/terms'].map(
        (p) => `http://vitrine.test${p}`,
      ),
    );
  });

  it('answers 404 for a page past the last and for a sitemap it does not make', async () => {
    for (const path of ['/sitemaps/items-2.xml', '/sitemaps/storefronts-0.xml', '/sitemaps/users-1.xml'])
      expect((await t.app.request(path)).status).toBe(404);
  });

  it('may be cached: Cache-Control, and a weak ETag a crawler sends back for a 304', async () => {
    for (const path of ['/sitemap.xml', '/sitemaps/items-1.xml', '/sitemaps/pages.xml']) {
      const res = await t.app.request(path);
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      const tag = res.headers.get('etag');
      expect(tag).toMatch(/^W\/".+"$/);
      const again = await t.app.request(path, { headers: { 'If-None-Match': tag! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    }
  });

  it('pages by id: no page over the page size, every URL on exactly one page, and the index names each page', async () => {
    const db = t.database.db;
    expect(SITEMAP_PAGE_SIZE).toBe(50_000);
    const maps = sitemaps(db, 'http://vitrine.test', { pageSize: 2 });
    const more = await insertStorefront(db, {
      ownerId: (await insertUser(db, { email: 'more@example.com', username: 'more', firstName: 'More' })).id,
      name: 'More',
      vanityUrl: 'more',
    });
    const extra = (
      await insertBlueprint(db, { storefrontId: more.id, title: 'Extra', price: 1, quantity: 1 })
    ).id;
    const index = await maps.index();
    expect(locs(index)).toEqual([
      'http://vitrine.test/sitemaps/pages.xml',
      'http://vitrine.test/sitemaps/items-1.xml',
      'http://vitrine.test/sitemaps/items-2.xml',
      'http://vitrine.test/sitemaps/packs-1.xml',
      'http://vitrine.test/sitemaps/storefronts-1.xml',
    ]);
    const xmls = [await maps.page('items', 1), await maps.page('items', 2)];
    const pages = xmls.map((xml) => locs(xml!));
    expect(pages.map((p) => p.length)).toEqual([2, 1]);
    const all = pages.flat();
    expect(all).toEqual([...all].sort());
    expect(all.sort()).toEqual(
      [ids.listed, ids.soldOut, extra].map((id) => `http://vitrine.test/nft/${id}`).sort(),
    );
    expect(await maps.page('items', 3)).toBeUndefined();
    // A page's lastmod in the index is its newest row's.
    xmls.forEach((xml, i) => {
      const newest = entries(xml!)
        .map((e) => e.lastmod)
        .sort()
        .at(-1);
      expect(entries(index)[1 + i]!.lastmod).toBe(newest);
    });
  });

  it('escapes its text for XML', async () => {
    const xml = await sitemaps(t.database.db, 'http://vitrine.test/?a=<1>&b="2"').index();
    expect(xml).toContain(
      '<loc>http://vitrine.test/?a=&lt;1&gt;&amp;b=&quot;2&quot;/sitemaps/pages.xml</loc>',
    );
  });
});
