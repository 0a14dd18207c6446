import { sql } from 'drizzle-orm';
import type { Hono } from 'hono';
import type { Log } from './clock';
import type { Executor } from './db';
import { blueprints, MARKET_WHERE } from './db/schema';
import type { AppEnv } from './http';

/**
 * Renders one page through the app as a visitor's request would go, and answers once it is done:
 * the item page of the first item a visitor can see (the heaviest page: its route's modules, the
 * catalog's and the item's statements), else the home page. A server's first render loads the
 * renderer's modules and prepares the API's statements; cold, an item page took 0.8–1.9 s of the
 * renderer's 2 s cutoff (server/spa.ts) and the first visitor's page could go out unrendered.
 * The server calls it once it listens with the app mounted, in the background; it never throws.
 */
export async function warmRenderer(app: Hono<AppEnv>, db: Executor, publicUrl: string, log: Log) {
  try {
    const [item] = await db
      .select({ id: blueprints.id })
      .from(blueprints)
      .where(sql.raw(MARKET_WHERE))
      .limit(1);
    const res = await app.fetch(new Request(new URL(item ? `/nft/${item.id}` : '/', publicUrl)));
    await res.arrayBuffer();
  } catch (error) {
    log.error('warming the page renderer failed', error);
  }
}
