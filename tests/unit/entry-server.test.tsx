import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../src/entry-server';

/** An API that knows no storefront, item or anything else: every call is a 404. */
const api = (() => {
  const app = new Hono();
  app.all('*', (c) => c.json({ code: 'NOT_FOUND', message: 'Not found' }, 404));
  return ((input: RequestInfo | URL, init?: RequestInit) =>
    app.fetch(new Request(input, init))) as typeof fetch;
})();

/**
 * The server's rendering of a page (src/entry-server.tsx, which server/spa.ts serves): a path no
 * route knows is the Not Found page with status 404, a known page 200.
 */
describe('a page rendered on the server', () => {
  it('is the Not Found page with status 404 for an unknown path', async () => {
    const page = await renderPage('/no-such-page', api);
    expect(page?.status).toBe(404);
    expect(page?.html).toContain('We couldn&#x27;t find what you&#x27;re looking for');
    expect(page?.html.match(/<main\b/g)).toHaveLength(1);
  });

  it('leaves a storefront a visitor cannot find to the browser (its owner may see a disabled one)', async () => {
    expect(await renderPage('/s/no-such-shop', api)).toBeNull();
  });

  it('is the page with status 200 for a known path', async () => {
    const page = await renderPage('/drops', api);
    expect(page?.status).toBe(200);
    expect(page?.html).toContain('Coming soon');
  });
});
