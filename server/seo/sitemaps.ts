import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db';
import { blueprintPacks, blueprints, MARKET_WHERE, storefronts } from '../db/schema';
import { CATALOG_PAGES, TEXT_PAGES } from '../pages';

/**
 * The sitemaps (sitemaps.org protocol 0.9): an index over pages of item URLs (`/nft/{id}`, the
 * visible blueprints and packs), pages of storefront URLs (`/s/{vanity}`, the enabled ones) and one
 * page of the other public pages. Every URL carries its lastmod: the day its row last changed.
 * Pages follow the rows' ids (keyset: each page starts at an id and reads on in id order through
 * an index), SITEMAP_PAGE_SIZE URLs a page at most.
 */

/** The protocol's limit of URLs in one sitemap file. */
export const SITEMAP_PAGE_SIZE = 50_000;

export type SitemapKind = 'items' | 'storefronts';
export const SITEMAP_KINDS: readonly SitemapKind[] = ['items', 'storefronts'];

interface Entry {
  id: string;
  /** The path segment of its page (an id, a vanity URL). */
  slug: string;
  lastmod: Date | string;
}

/**
 * The rows a visitor may see, as (id, slug, lastmod): items are blueprints that match MARKET_WHERE
 * (visible, of an enabled storefront, past their draft) and packs that are visible, past their
 * draft and of an enabled storefront (a suspended storefront is disabled); storefronts are the
 * enabled ones. Each reads a partial index in id order.
 */
const visibleRows: Record<SitemapKind, SQL> = {
  items: sql`(select ${blueprints.id} as id, ${blueprints.id}::text as slug, ${blueprints.updatedAt} as lastmod
      from ${blueprints} where ${sql.raw(MARKET_WHERE)}
    union all
    select ${blueprintPacks.id}, ${blueprintPacks.id}::text, ${blueprintPacks.createdAt}
      from ${blueprintPacks} join ${storefronts} on ${storefronts.id} = ${blueprintPacks.storefrontId}
      where ${blueprintPacks.visible} and ${blueprintPacks.state} <> 'created' and ${storefronts.enabled})`,
  storefronts: sql`(select ${storefronts.id} as id, ${storefronts.vanityUrl} as slug, ${storefronts.updatedAt} as lastmod
      from ${storefronts} where ${storefronts.enabled})`,
};

const pathOf: Record<SitemapKind, (slug: string) => string> = {
  items: (id) => `/nft/${encodeURIComponent(id)}`,
  storefronts: (vanity) => `/s/${encodeURIComponent(vanity)}`,
};

async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Where each page of a kind starts, and when the newest of its rows changed: one pass over the
 * index, numbering the rows in id order. No row, no page.
 */
export async function sitemapPages(
  db: Executor,
  kind: SitemapKind,
  pageSize = SITEMAP_PAGE_SIZE,
): Promise<{ starts: string[]; lastmods: string[] }> {
  const found = await rows<{ id: string; lastmod: Date | string }>(
    db,
    sql`select (array_agg(id) filter (where (n - 1) % ${pageSize} = 0))[1] as id, max(lastmod) as lastmod
      from (select id, lastmod, row_number() over (order by id) as n from ${visibleRows[kind]} as v) as numbered
      group by (n - 1) / ${pageSize} order by 1`,
  );
  return { starts: found.map((r) => r.id), lastmods: found.map((r) => iso(r.lastmod)) };
}

/** The page's rows: from its start, in id order, up to the next page's start. */
async function pageRows(
  db: Executor,
  kind: SitemapKind,
  start: string,
  end: string | undefined,
  pageSize: number,
): Promise<Entry[]> {
  const before = end === undefined ? sql`` : sql`and id < ${end}::uuid`;
  return rows<Entry>(
    db,
    sql`select id, slug, lastmod from ${visibleRows[kind]} as v
      where id >= ${start}::uuid ${before} order by id limit ${pageSize}`,
  );
}

const iso = (time: Date | string) => new Date(time).toISOString();

/** Text safe inside an XML element. */
const xmlText = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

function urlset(origin: string, entries: { path: string; lastmod: string }[]): string {
  const urls = entries.map(
    (e) => `<url><loc>${xmlText(origin + e.path)}</loc><lastmod>${e.lastmod}</lastmod></url>`,
  );
  return `${XML_HEAD}<urlset ${NS}>\n${urls.join('\n')}\n</urlset>\n`;
}

/** The sitemap index: the pages sitemap, then each page of items and of storefronts. */
export async function sitemapIndex(
  db: Executor,
  origin: string,
  pageSize = SITEMAP_PAGE_SIZE,
): Promise<string> {
  const maps: { loc: string; lastmod: string }[] = [];
  const newest: string[] = [];
  for (const kind of SITEMAP_KINDS) {
    const { lastmods } = await sitemapPages(db, kind, pageSize);
    lastmods.forEach((lastmod, i) => {
      maps.push({ loc: `${origin}/sitemaps/${kind}-${i + 1}.xml`, lastmod });
    });
    newest.push(...lastmods);
  }
  const pages = { loc: `${origin}/sitemaps/pages.xml`, lastmod: await pagesLastmod(db) };
  const entries = [pages, ...maps].map(
    (m) => `<sitemap><loc>${xmlText(m.loc)}</loc><lastmod>${m.lastmod}</lastmod></sitemap>`,
  );
  return `${XML_HEAD}<sitemapindex ${NS}>\n${entries.join('\n')}\n</sitemapindex>\n`;
}

/** Page `page` (from 1) of a kind, or undefined when there is no such page. */
export async function sitemapPage(
  db: Executor,
  origin: string,
  kind: SitemapKind,
  page: number,
  pageSize = SITEMAP_PAGE_SIZE,
): Promise<string | undefined> {
  const { starts } = await sitemapPages(db, kind, pageSize);
  const start = starts[page - 1];
  if (start === undefined) return undefined;
  const found = await pageRows(db, kind, start, starts[page], pageSize);
  return urlset(
    origin,
    found.map((r) => ({ path: pathOf[kind](r.slug), lastmod: iso(r.lastmod) })),
  );
}

/** The newest change of each kind's visible rows (undefined when there is none). */
async function newestChange(db: Executor, kind: SitemapKind): Promise<string | undefined> {
  const [row] = await rows<{ lastmod: Date | string | null }>(
    db,
    sql`select max(lastmod) as lastmod from ${visibleRows[kind]} as v`,
  );
  return row?.lastmod ? iso(row.lastmod) : undefined;
}

/**
 * The other public pages: those that show the catalog (lastmod: the newest change of what they
 * show) and those of fixed text (lastmod: the day the text changed).
 */
async function pageEntries(db: Executor): Promise<{ path: string; lastmod: string }[]> {
  const entries: { path: string; lastmod: string }[] = [];
  for (const kind of SITEMAP_KINDS) {
    const lastmod = await newestChange(db, kind);
    if (lastmod) entries.push(...CATALOG_PAGES[kind].map((path) => ({ path, lastmod })));
  }
  entries.push(...TEXT_PAGES.map((p) => ({ path: p.path, lastmod: p.updated })));
  return entries;
}

async function pagesLastmod(db: Executor): Promise<string> {
  return (await pageEntries(db))
    .map((e) => e.lastmod)
    .sort()
    .at(-1)!;
}

/** The sitemap of the other public pages. */
export async function pagesSitemap(db: Executor, origin: string): Promise<string> {
  return urlset(origin, await pageEntries(db));
}
