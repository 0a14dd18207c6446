import type { Context, Hono } from 'hono';
import { etag } from 'hono/etag';
import type { Services } from '../deps';
import type { AppEnv } from '../http';
import { NOT_FOR_CRAWLERS } from '../pages';
import { SITEMAP_KINDS, type SitemapKind, sitemaps } from './sitemaps';

/**
 * The files for search engines: /robots.txt and the sitemaps (server/seo/sitemaps.ts), on the
 * canonical origin (PUBLIC_URL). Sitemaps are kept for CACHE_SECONDS by browsers and crawlers and
 * carry a weak ETag (the same for every encoding): a crawler that sends it back gets a 304 while
 * nothing changed. The server reuses a made sitemap as long as the catalog's answer cache
 * (VITRINE_CATALOG_CACHE_MS) keeps it; a catalog change clears it.
 */
const CACHE_SECONDS = 3600;
const XML = 'application/xml; charset=UTF-8';

/** robots.txt: everything may be crawled but the API and the pages NOT_FOR_CRAWLERS names. */
export function robotsTxt(publicUrl: string): string {
  const disallow = NOT_FOR_CRAWLERS.map((path) => `Disallow: ${path}`);
  return ['User-agent: *', 'Allow: /', ...disallow, '', `Sitemap: ${publicUrl}/sitemap.xml`, ''].join('\n');
}

const PAGE_FILE = new RegExp(`^(${SITEMAP_KINDS.join('|')})-([1-9][0-9]{0,8})\\.xml$`);

export function mountSeoFiles(app: Hono<AppEnv>, s: Services): void {
  const origin = s.config.publicUrl;
  const robots = robotsTxt(origin);
  app.get('/robots.txt', (c) => c.text(robots, 200, { 'Cache-Control': `public, max-age=${CACHE_SECONDS}` }));

  /** The sitemap made by `make` (or kept from before), or a 404 when there is no such page. */
  const sitemap = async (c: Context<AppEnv>, key: string, make: () => Promise<string | undefined>) => {
    const answer = await s.catalogCache.answer(`sitemap ${key}`, async () => (await make()) ?? '');
    if (!answer.body) return c.notFound();
    return c.body(answer.body, 200, {
      'Content-Type': XML,
      'Cache-Control': `public, max-age=${CACHE_SECONDS}`,
    });
  };
  app.use('/sitemap.xml', etag({ weak: true }));
  app.use('/sitemaps/*', etag({ weak: true }));
  const maps = sitemaps(s.db, origin, { cache: s.catalogCache });
  app.get('/sitemap.xml', (c) => sitemap(c, 'index', () => maps.index()));
  app.get('/sitemaps/pages.xml', (c) => sitemap(c, 'pages', () => maps.pages()));
  app.get('/sitemaps/:file', (c) => {
    const file = c.req.param('file');
    const match = PAGE_FILE.exec(file);
    if (!match) return c.notFound();
    const kind = match[1] as SitemapKind;
    return sitemap(c, file, () => maps.page(kind, Number(match[2])));
  });
}
