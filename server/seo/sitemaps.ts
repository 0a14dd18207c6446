import { type SQL, sql } from 'drizzle-orm';
import { type AnswerCache, createAnswerCache } from '../catalog/cache';
import type { Executor } from '../db';
import { blueprintPacks, blueprints, MARKET_WHERE, storefronts } from '../db/schema';
import { CATALOG_PAGES, TEXT_PAGES } from '../pages';

/**
 * The sitemaps (sitemaps.org protocol 0.9): an index over pages of item URLs (`/nft/{id}`: the
 * visible blueprints, then the visible packs), pages of storefront URLs (`/s/{vanity}`, the enabled
 * ones) and one page of the other public pages. Every URL carries its lastmod: when its row last
 * changed. Pages follow the rows' ids (keyset: each page starts at an id and reads on in id order
 * through a partial index, never sorting), SITEMAP_PAGE_SIZE URLs a page at most.
 */

/** The protocol's limit of URLs in one sitemap file. */
export const SITEMAP_PAGE_SIZE = 50_000;

export type SitemapKind = 'items' | 'packs' | 'storefronts';
export const SITEMAP_KINDS: readonly SitemapKind[] = ['items', 'packs', 'storefronts'];

interface Entry {
  id: string;
  /** The path segment of its page (an id, a vanity URL). */
  slug: string;
  lastmod: Date | string;
}

/**
 * The rows a visitor may see, as (id, slug, lastmod), each kind from one table read through its
 * partial index in id order: items are the blueprints that match MARKET_WHERE (visible, of an
 * enabled storefront, past their draft); packs those visible, past their draft and of an enabled
 * storefront (a suspended storefront is disabled; packs never change after they are made, so their
 * creation is their last change); storefronts the enabled ones.
 */
const visibleRows: Record<SitemapKind, SQL> = {
  items: sql`(select ${blueprints.id} as id, ${blueprints.id}::text as slug, ${blueprints.updatedAt} as lastmod
      from ${blueprints} where ${sql.raw(MARKET_WHERE)})`,
  packs: sql`(select ${blueprintPacks.id} as id, ${blueprintPacks.id}::text as slug, ${blueprintPacks.createdAt} as lastmod
      from ${blueprintPacks} join ${storefronts} on ${storefronts.id} = ${blueprintPacks.storefrontId}
      where ${blueprintPacks.visible} and ${blueprintPacks.state} <> 'created' and ${storefronts.enabled})`,
  storefronts: sql`(select ${storefronts.id} as id, ${storefronts.vanityUrl} as slug, ${storefronts.updatedAt} as lastmod
      from ${storefronts} where ${storefronts.enabled})`,
};

const pathOf: Record<SitemapKind, (slug: string) => string> = {
  items: (id) => `/nft/${encodeURIComponent(id)}`,
  packs: (id) => `/nft/${encodeURIComponent(id)}`,
  storefronts: (vanity) => `/s/${encodeURIComponent(vanity)}`,
};

async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
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

/** Where each page of a kind starts (its first id) and its newest row's change. */
interface Paging {
  starts: string[];
  lastmods: string[];
}

export interface Sitemaps {
  /** The sitemap index: the pages sitemap, then each page of each kind. */
  index(): Promise<string>;
  /** Page `page` (from 1) of a kind, or undefined when there is no such page. */
  page(kind: SitemapKind, page: number): Promise<string | undefined>;
  /** The sitemap of the other public pages. */
  pages(): Promise<string>;
}

/**
 * The sitemaps of the catalog in `db`, with URLs on `origin`. A kind's paging (one pass over its
 * index, numbering the rows in id order) is kept in `cache` while it keeps answers, so the index
 * and the pages a crawler reads next share one.
 */
export function sitemaps(
  db: Executor,
  origin: string,
  options: { pageSize?: number; cache?: AnswerCache } = {},
): Sitemaps {
  const { pageSize = SITEMAP_PAGE_SIZE, cache = createAnswerCache(0) } = options;

  const paging = async (kind: SitemapKind): Promise<Paging> => {
    const made = await cache.answer(`sitemap paging ${kind} ${pageSize}`, async () => {
      const found = await rows<{ id: string; lastmod: Date | string }>(
        db,
        sql`select (array_agg(id) filter (where (n - 1) % ${pageSize} = 0))[1] as id, max(lastmod) as lastmod
          from (select id, lastmod, row_number() over (order by id) as n from ${visibleRows[kind]} as v) as numbered
          group by (n - 1) / ${pageSize} order by 1`,
      );
      return JSON.stringify({ starts: found.map((r) => r.id), lastmods: found.map((r) => iso(r.lastmod)) });
    });
    return JSON.parse(made.body) as Paging;
  };

  /** The public pages that show the catalog (lastmod: its newest change) and those of fixed text. */
  const pageEntries = async () => {
    const newest = Object.fromEntries(
      await Promise.all(SITEMAP_KINDS.map(async (kind) => [kind, (await paging(kind)).lastmods] as const)),
    ) as Record<SitemapKind, string[]>;
    const entries: { path: string; lastmod: string }[] = [];
    for (const { path, shows } of CATALOG_PAGES) {
      const lastmod = shows
        .flatMap((kind) => newest[kind])
        .sort()
        .at(-1);
      if (lastmod) entries.push({ path, lastmod });
    }
    entries.push(...TEXT_PAGES.map((p) => ({ path: p.path, lastmod: p.updated })));
    return entries;
  };

  return {
    async index() {
      const maps = [{ loc: `${origin}/sitemaps/pages.xml`, lastmod: '' }];
      for (const kind of SITEMAP_KINDS)
        (await paging(kind)).lastmods.forEach((lastmod, i) => {
          maps.push({ loc: `${origin}/sitemaps/${kind}-${i + 1}.xml`, lastmod });
        });
      maps[0]!.lastmod = (await pageEntries())
        .map((e) => e.lastmod)
        .sort()
        .at(-1)!;
      const entries = maps.map(
        (m) => `<sitemap><loc>${xmlText(m.loc)}</loc><lastmod>${m.lastmod}</lastmod></sitemap>`,
      );
      return `${XML_HEAD}<sitemapindex ${NS}>\n${entries.join('\n')}\n</sitemapindex>\n`;
    },

    async page(kind, page) {
      const { starts } = await paging(kind);
      const start = starts[page - 1];
      if (start === undefined) return undefined;
      const end = starts[page];
      const found = await rows<Entry>(
        db,
        sql`select id, slug, lastmod from ${visibleRows[kind]} as v
          where id >= ${start}::uuid ${end === undefined ? sql`` : sql`and id < ${end}::uuid`}
          order by id limit ${pageSize}`,
      );
      return urlset(
        origin,
        found.map((r) => ({ path: pathOf[kind](r.slug), lastmod: iso(r.lastmod) })),
      );
    },

    async pages() {
      return urlset(origin, await pageEntries());
    },
  };
}
