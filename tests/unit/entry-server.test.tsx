import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../src/entry-server';

const origin = 'https://vitrine.example';

/** An API that knows no storefront, item or anything else: every call is a 404. */
const api = (() => {
  const app = new Hono();
  app.all('*', (c) => c.json({ code: 'NOT_FOUND', message: 'Not found' }, 404));
  return ((input: RequestInfo | URL, init?: RequestInit) =>
    app.fetch(new Request(input, init))) as typeof fetch;
})();

/**
 * The server's rendering of a page (src/entry-server.tsx, which server/spa.ts serves): a path no
 * route knows, or an item or storefront the API does not show, is the Not Found page with status
 * 404, a known page 200.
 */
describe('a page rendered on the server', () => {
  it('is the Not Found page with status 404 for an unknown path', async () => {
    const page = await renderPage('/no-such-page', api, origin);
    expect(page?.status).toBe(404);
    expect(page?.html).toContain('We couldn&#x27;t find what you&#x27;re looking for');
    expect(page?.html.match(/<main\b/g)).toHaveLength(1);
  });

  it('is the Not Found page with status 404 for a storefront or item a visitor cannot find', async () => {
    for (const path of ['/s/no-such-shop', '/nft/123', '/nft/5b52e142-748c-49b6-ae2d-c51615da15cb']) {
      const page = await renderPage(path, api, origin);
      expect(page?.status, path).toBe(404);
      expect(page?.html).toContain('We couldn&#x27;t find what you&#x27;re looking for');
      expect(page?.head).toContain('<meta data-head="" name="robots" content="noindex"/>');
    }
  });

  it('is the page with status 200 for a known path', async () => {
    const page = await renderPage('/drops', api, origin);
    expect(page?.status).toBe(200);
    expect(page?.html).toContain('Coming soon');
  });
});
