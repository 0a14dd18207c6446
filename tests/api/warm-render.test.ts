import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../server/db';
import { insertBlueprint, insertStorefront, insertUser } from '../../server/seed/factory';
import { start } from '../../server/start';
import { openTestDatabase, silentLog, testConfig } from './support/harness';

/**
 * A built renderer (dist-ssr/entry-server.js beside dist/) that is cold as a fresh server's is: its
 * first render takes longer than the server's 2 s cutoff (server/spa.ts), later ones are at once.
 * A rendered page shows the URL it was made for.
 */
const COLD_RENDERER = `let cold = true;
export async function renderPage(url) {
  if (cold) {
    cold = false;
    await new Promise((resolve) => setTimeout(resolve, 2500));
  }
  return { html: '<main>rendered ' + url + '</main>', answers: {} };
}
`;

describe('the page renderer of a server that starts', () => {
  const root = mkdtempSync(join(tmpdir(), 'vitrine-warm-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("is warmed once the server listens: the first visitor's item page is rendered", async () => {
    const spaDir = join(root, 'dist');
    mkdirSync(spaDir, { recursive: true });
    mkdirSync(join(root, 'dist-ssr'));
    writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>Vitrine</title><div id="root"></div>');
    writeFileSync(join(root, 'dist-ssr', 'entry-server.js'), COLD_RENDERER);
    const { url } = await openTestDatabase('pglite');
    const config = testConfig(url, join(root, 'data'), { production: true, nodeEnv: 'production' });
    let itemId = '';
    const server = await start(config, {
      log: silentLog([]),
      spaDir,
      // One item a visitor can see.
      openDatabase: async (c) => {
        const handle = await openDb(c);
        const owner = await insertUser(handle.db, {
          email: 'warm@example.com',
          username: 'warm',
          firstName: 'Warm',
        });
        const shop = await insertStorefront(handle.db, {
          ownerId: owner.id,
          name: 'Warm',
          vanityUrl: 'warm',
        });
        const item = await insertBlueprint(handle.db, {
          storefrontId: shop.id,
          title: 'Warm',
          price: 100,
          quantity: 5,
        });
        itemId = item.id;
        return handle;
      },
    });
    try {
      await server.rendererWarmed();
      const page = await fetch(`http://127.0.0.1:${server.port}/nft/${itemId}`);
      expect(await page.text()).toContain(`<main>rendered /nft/${itemId}</main>`);
    } finally {
      await server.close();
    }
  });
});
