import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { canonicalLocation, canonicalOrigin, devWalletUrl } from '../../server/origin';

const readme = 'http://localhost:3000';

describe('one canonical origin', () => {
  it('sends another loopback name of the same server to the canonical origin, keeping path and query', () => {
    for (const host of [
      '127.0.0.1:3000',
      '[::1]:3000',
      '0.0.0.0:3000',
      'shop.localhost:3000',
      '127.0.1.1:3000',
    ])
      expect(canonicalLocation('http://x/items/7?tab=history&x=%20', host, readme), host).toBe(
        'http://localhost:3000/items/7?tab=history&x=%20',
      );
    expect(canonicalLocation('/auth/connect', '127.0.0.1:8080', 'http://localhost:8080')).toBe(
      'http://localhost:8080/auth/connect',
    );
  });

  it('leaves the canonical host, other ports, real domains and missing hosts alone', () => {
    expect(canonicalLocation('/', 'localhost:3000', readme)).toBeNull();
    expect(canonicalLocation('/', 'LOCALHOST:3000', readme)).toBeNull();
    // Another port is another server (a sandbox, a second instance).
    expect(canonicalLocation('/', '127.0.0.1:3001', readme)).toBeNull();
    expect(canonicalLocation('/', 'vitrine.example:3000', readme)).toBeNull();
    expect(canonicalLocation('/', undefined, readme)).toBeNull();
    expect(canonicalLocation('/', 'bad host', readme)).toBeNull();
    // A deployment on a real domain: a loopback request (a proxy's, a health check) stays.
    expect(canonicalLocation('/', '127.0.0.1', 'https://vitrine.example')).toBeNull();
    expect(canonicalLocation('/', '127.0.0.1:443', 'https://vitrine.example')).toBeNull();
  });

  it('redirects pages with 308 and never the API', async () => {
    const app = new Hono();
    app.use(canonicalOrigin(readme));
    app.get('*', (c) => c.text('page'));
    const page = await app.request('http://127.0.0.1:3000/s/aria?sort=new', {
      headers: { host: '127.0.0.1:3000' },
    });
    expect(page.status).toBe(308);
    expect(page.headers.get('location')).toBe('http://localhost:3000/s/aria?sort=new');
    const api = await app.request('http://127.0.0.1:3000/api/health', {
      headers: { host: '127.0.0.1:3000' },
    });
    expect(api.status).toBe(200);
    const home = await app.request('http://localhost:3000/', { headers: { host: 'localhost:3000' } });
    expect(await home.text()).toBe('page');
  });

  it('puts the dev wallet under the product’s host name, so that its frame is same-site', () => {
    expect(devWalletUrl(readme, 8701)).toBe('http://localhost:8701');
    expect(devWalletUrl('http://shop.localhost:3000', 8701)).toBe('http://shop.localhost:8701');
    expect(devWalletUrl('http://127.0.0.1:3000', 8701)).toBe('http://127.0.0.1:8701');
    expect(devWalletUrl('https://vitrine.example', 9701)).toBe('http://127.0.0.1:9701');
  });
});
