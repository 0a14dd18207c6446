import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { openDb } from '../../server/db';
import type { PageRenderer } from '../../server/spa';
import { databases, type Json, openTestDatabase, silentLog, testConfig, useTestApp } from './support/harness';

/** Every route of the API, as `METHOD /path` below /api. */
const ROUTES = [
  'GET /health',
  'GET /health/ready',
  'GET /openapi.json',
  'POST /users/registrations',
  'GET /users/me',
  'GET /users/{id}',
  'PATCH /users/me',
  'POST /veriff-kyc',
  'POST /webhooks/veriff',
  'GET /admin/users',
  'GET /admin/kyc',
  'GET /admin/blueprints',
  'GET /admin/sales',
  'GET /admin/charges',
  'GET /admin/storefront-reports',
  'GET /admin/payout-requests',
  'GET /admin/audit',
  'PATCH /admin/users/{id}',
  'PATCH /admin/storefronts/{id}',
  'PATCH /admin/kyc/{id}',
  'GET /admin/emails',
  'PATCH /admin/emails/{id}',
  'GET /storefront-reports',
  'PATCH /storefront-reports/{id}',
  'GET /notifications',
  'POST /notifications/actions/read',
  'GET /users/me/favorites',
  'GET /users/me/favorites/ids',
  'PUT /users/me/favorites/{blueprintId}',
  'DELETE /users/me/favorites/{blueprintId}',
  'POST /auth/logins',
  'POST /auth/logins/passwords/resets',
  'PATCH /auth/logins/passwords',
  'POST /auth/sessions/refresh',
  'DELETE /auth/sessions/current',
  'POST /users/email-confirmations',
  'POST /users/sale-email-opt-outs',
  'GET /queries/user-existence',
  'POST /users/wallets/actions/request-account-proof',
  'POST /users/wallets/actions/verify-account-proof',
  'GET /chain/config',
  'POST /dev/nfts',
  'GET /nfts',
  'GET /activity',
  'GET /nfts/{id}',
  'GET /nfts/{id}/history',
  'GET /nfts/purchases',
  'GET /nfts/sale-listings/{id}',
  'POST /nfts/sale-listings/actions/record',
  'POST /nfts/sale-listings/actions/cancel',
  'POST /nfts/purchases/actions/record',
  'GET /offers',
  'POST /offers/actions/record',
  'GET /storefronts',
  'GET /storefronts/me',
  'GET /storefronts/{id}',
  'GET /storefronts/{id}/stats',
  'GET /home/trending',
  'POST /storefronts',
  'PATCH /storefronts/{id}',
  'POST /storefront-reports',
  'GET /queries/storefront-share',
  'GET /blueprints',
  'GET /blueprints/{id}',
  'POST /blueprints',
  'PATCH /blueprints/{id}',
  'GET /blueprints/{id}/history',
  'GET /blueprint-packs',
  'GET /blueprint-packs/{id}',
  'GET /assets/upload-url',
  'PUT /assets/uploads/{token}',
  'POST /assets/uploads/{token}',
  'POST /image-jobs',
  'GET /image-jobs/{jobId}',
  'GET /sales',
  'GET /sales/ledger.csv',
  'GET /sales/chart',
  'GET /payout-requests',
  'POST /payout-requests',
  'PATCH /payout-requests/{id}',
  'GET /config/payments',
  'GET /billing-info',
  'POST /billing-info',
  'DELETE /billing-info/{id}',
  'POST /checkout-com-charges',
  'GET /checkout-com-charges',
  'GET /checkout-com-charges/{id}',
  'PATCH /checkout-com-charges/{id}/actions/sync',
  'POST /checkout-com-charges/{id}/actions/cancel',
  'POST /checkout-com-charges/actions/applepay',
  'POST /webhooks/checkout-com',
  'POST /coinbase-charges',
  'GET /coinbase-charges',
  'GET /coinbase-charges/{id}',
  'PATCH /coinbase-charges/{id}',
  'POST /webhooks/coinbase-commerce',
  'POST /wert-charges',
  'GET /wert-charges',
  'GET /wert-charges/{id}',
  'PATCH /wert-charges/{id}',
  'POST /webhooks/wert',
  'POST /fusd-orders',
  'GET /fusd-orders/{id}',
  'PATCH /fusd-orders/{id}',
  'GET /free-blueprint-claims',
  'POST /free-blueprint-claims',
  'GET /orders/{id}',
];

describe.each(databases)('HTTP conventions on %s', (database) => {
  const t = useTestApp(database);

  it('answers GET /api/health with the database kind', async () => {
    const res = await t.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database, chain: null });
  });

  describe('GET /api/openapi.json', () => {
    it('lists every route with its summary, tag and input schemas', async () => {
      const res = await t.request('GET', '/api/openapi.json');
      expect(res.status).toBe(200);
      const doc = res.body;
      expect(doc).toMatchObject({
        openapi: '3.1.0',
        info: { title: 'Vitrine API' },
        servers: [{ url: '/api' }],
      });
      const listed = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(
        ([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(listed.sort()).toEqual([...ROUTES].sort());
      for (const ops of Object.values(doc.paths as Record<string, Record<string, Json>>)) {
        for (const op of Object.values(ops)) {
          expect(op.summary).toEqual(expect.any(String));
          expect(op.tags).toHaveLength(1);
          expect(Object.keys(op.responses).length).toBeGreaterThan(0);
        }
      }
    });

    it('describes bodies, parameters and security from the shared schemas', async () => {
      const { paths, components } = (await t.request('GET', '/api/openapi.json')).body;
      const registration = paths['/users/registrations'].post;
      const body = registration.requestBody.content['application/json'].schema;
      expect(body.required).toEqual(['email', 'username', 'password', 'firstName']);
      expect(body.properties.password).toMatchObject({ type: 'string', minLength: 8 });
      expect(body.properties.email).toMatchObject({ pattern: expect.stringContaining('@'), maxLength: 100 });
      expect(registration.security).toBeUndefined();
      expect(registration.responses['400'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/Error',
      });

      expect(paths['/users/{id}'].get.parameters).toEqual([
        { name: 'id', in: 'path', required: true, schema: expect.objectContaining({ type: 'string' }) },
      ]);
      expect(
        paths['/queries/user-existence'].get.parameters.map((p: Json) => [p.name, p.in, p.required]),
      ).toEqual([
        ['email', 'query', false],
        ['walletAddress', 'query', false],
      ]);
      expect(paths['/users/me'].patch.security).toEqual([{ bearerAuth: [] }]);
      expect(paths['/users/{id}'].get.security).toEqual([{}, { bearerAuth: [] }]);
      expect(components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
      const operationIds = Object.values(paths as Record<string, Record<string, Json>>).flatMap((ops) =>
        Object.values(ops).map((op) => op.operationId),
      );
      expect(new Set(operationIds).size).toBe(ROUTES.length);
      expect(operationIds).toContain('getUsersById');
    });
  });

  describe('bad input never answers 500', () => {
    const post = (raw: string) =>
      t.request('POST', '/api/auth/logins', { raw, headers: { 'content-type': 'application/json' } });

    it('answers 400 INVALID_VALUE for malformed JSON', async () => {
      for (const raw of ['{"email":', '{email: "a"}', 'undefined', '\u0000']) {
        const res = await post(raw);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'INVALID_VALUE', message: 'The request body is not valid JSON' });
      }
    });

    it('answers 400 INVALID_VALUE for a JSON body that is not an object', async () => {
      for (const raw of ['null', '[]', '42', '"text"', 'true']) {
        const res = await post(raw);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'INVALID_VALUE',
          message: 'The request body must be a JSON object',
        });
      }
    });

    it('answers 400 with the field for values of the wrong type', async () => {
      const res = await t.request('POST', '/api/users/registrations', {
        body: { email: ['a@b.co'], username: {}, password: 1, firstName: null },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'EMAIL_MISSING', field: 'email' });
      const other = await t.request('PATCH', '/api/users/me', { body: { avatarUrl: 5 } });
      expect(other.status).toBe(401);
    });

    it('treats an empty body as an empty object', async () => {
      const res = await post('');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'EMAIL_MISSING', field: 'email' });
    });

    it('answers 415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
        const res = await t.request('POST', '/api/auth/logins', {
          raw: '{"email":"a@b.co","password":"whatever password"}',
          headers: { 'content-type': type },
        });
        expect(res.status).toBe(415);
        expect(res.body).toEqual({
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'Requests must be sent as JSON.',
        });
      }
    });

    it('answers 413 for a body over 3 MB (the largest upload is 2 MB)', async () => {
      const res = await post(JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(3 * 1024 * 1024) }));
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('INVALID_VALUE');
    });
  });

  it('answers 404 not_found JSON for an unknown /api path', async () => {
    for (const [method, path] of [
      ['GET', '/api/nothing-here'],
      ['GET', '/api'],
      ['DELETE', '/api/nothing/here'],
    ] as const) {
      const res = await t.request(method, path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'not_found', message: "We couldn't find what you're looking for" });
    }
  });

  it('answers 405 with Allow for a method a known path does not serve, on every route', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/api/users/me', 'GET, HEAD, PATCH'],
      ['POST', '/api/health', 'GET, HEAD'],
      ['PUT', '/api/users/7b0e8d52-6a1f-4c3e-9d2b-1f0a9e8c7d65', 'GET, HEAD'],
      ['DELETE', '/api/payout-requests', 'GET, HEAD, POST'],
      // A fixed path wins over a pattern it also fits: not GET /users/{id}.
      ['GET', '/api/users/registrations', 'POST'],
      ['GET', '/api/users/email-confirmations', 'POST'],
    ] as const) {
      const res = await t.request(method, path);
      expect([method, path, res.status, res.headers.get('allow')]).toEqual([method, path, 405, allow]);
      expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
    }
    // Every route's path refuses a method it does not list.
    const doc = (await t.request('GET', '/api/openapi.json')).body as { paths: Record<string, object> };
    for (const [path, ops] of Object.entries(doc.paths)) {
      const declared = Object.keys(ops).map((m) => m.toUpperCase());
      // Whatever method the path does not list, also one another route's pattern (/users/{id}) serves.
      for (const other of ['PUT', 'DELETE', 'PATCH', 'POST', 'GET'].filter((m) => !declared.includes(m))) {
        const url = `/api${path.replace(/\{\w+\}/g, '7b0e8d52-6a1f-4c3e-9d2b-1f0a9e8c7d65')}`;
        const res = await t.request(other, url, other === 'GET' ? {} : { body: {} });
        expect([other, path, res.status]).toEqual([other, path, 405]);
      }
    }
  });

  it('answers 404 JSON for paths outside /api when no SPA is served', async () => {
    const res = await t.request('GET', '/marketplace');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe.each(databases)('unexpected errors on %s', (database) => {
  const logged: unknown[][] = [];
  let drop: () => Promise<void>;
  let dataDir: string;
  afterAll(async () => {
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 500 {code: unknown} and logs the error', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vitrine-api-'));
    const created = await openTestDatabase(database);
    drop = created.drop;
    const config = testConfig(created.url, dataDir);
    const handle = await openDb(config);
    const app = createApp({ config, database: handle, log: silentLog(logged) });
    await handle.close();
    const res = await app.request('/api/auth/logins', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.co', password: 'whatever password' }),
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ code: 'unknown', message: 'Unknown error occurred' });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(logged.map((line) => String(line[0]))).toContainEqual(
      expect.stringContaining('POST /api/auth/logins failed'),
    );
    // The access line of the request says 500, under its route.
    expect(logged.at(-1)).toEqual([
      'request',
      { method: 'POST', route: '/api/auth/logins', status: 500, duration_ms: expect.any(Number) },
    ]);
  });
});

describe.each(databases)('the SPA in production on %s', (database) => {
  const root = mkdtempSync(join(tmpdir(), 'vitrine-dist-'));
  const spaDir = join(root, 'dist');
  mkdirSync(join(spaDir, 'assets'), { recursive: true });
  writeFileSync(join(root, 'secret.txt'), 'top secret');
  writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>Vitrine</title>');
  writeFileSync(join(spaDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(spaDir, 'favicon.svg'), '<svg/>');
  // A built chunk with the .br and .gz the build writes beside it.
  const chunk = `export const words = ${JSON.stringify('vitrine '.repeat(400))};`;
  writeFileSync(join(spaDir, 'assets', 'big-abc123.js'), chunk);
  writeFileSync(join(spaDir, 'assets', 'big-abc123.js.br'), brotliCompressSync(chunk));
  writeFileSync(join(spaDir, 'assets', 'big-abc123.js.gz'), gzipSync(chunk));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const t = useTestApp(database, { production: true, nodeEnv: 'production' }, { spaDir });

  it('serves index.html at / with no-cache', async () => {
    const res = await t.request('GET', '/');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Vitrine</title>');
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves hashed assets as immutable for a year', async () => {
    const res = await t.request('GET', '/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.body).toBe('console.log(1)');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Never revalidated nor resumed: the headers for that are left off.
    expect(res.headers.get('last-modified')).toBeNull();
    expect(res.headers.get('accept-ranges')).toBeNull();
  });

  it('sends a built file as its precompressed brotli or gzip twin, by what the browser accepts', async () => {
    const get = (encoding?: string) =>
      t.app.request('/assets/big-abc123.js', { headers: encoding ? { 'Accept-Encoding': encoding } : {} });
    const br = await get('gzip, deflate, br, zstd');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    expect(br.headers.get('content-type')).toContain('javascript');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Number(br.headers.get('content-length'))).toBeLessThan(chunk.length / 10);
    const gz = await get('gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(chunk);
    const plain = await get();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(chunk);
  });

  it('compresses API answers for a client that accepts gzip', async () => {
    const res = await t.app.request('/api/openapi.json', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toContain('Accept-Encoding');
    const document = JSON.parse(gunzipSync(Buffer.from(await res.arrayBuffer())).toString());
    expect(document.openapi).toMatch(/^3\./);
  });

  it('says Vary: Accept-Encoding once on every JSON answer, compressed or not', async () => {
    for (const headers of [{}, { 'Accept-Encoding': 'gzip' }] as Record<string, string>[]) {
      const small = await t.app.request('/api/health', { headers });
      expect(small.headers.get('vary')).toBe('Accept-Encoding');
      const large = await t.app.request('/api/openapi.json', { headers });
      expect(large.headers.get('vary')).toBe('Accept-Encoding');
    }
  });

  it('answers 404 for a missing asset instead of index.html', async () => {
    const res = await t.request('GET', '/assets/index-gone.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBeNull();
  });

  it('serves other files as they are', async () => {
    const res = await t.request('GET', '/favicon.svg');
    expect(res.body).toBe('<svg/>');
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('falls back to index.html for client routes', async () => {
    for (const path of ['/marketplace', '/nft/42/history', '/auth/reset-password?t=abc']) {
      const res = await t.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toContain('<title>Vitrine</title>');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('answers a path no page has with index.html and status 404: the browser shows its Not Found page', async () => {
    for (const path of ['/no-such-page', '/nft/42/nope', '/marketplace/x?y=1', '/missing.png']) {
      const res = await t.request('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body).toContain('<title>Vitrine</title>');
      expect(res.headers.get('content-type')).toContain('text/html');
    }
    expect((await t.request('GET', '/auth/')).status).toBe(200);
  });

  it('still answers unknown /api paths with 404 JSON and serves the API', async () => {
    const res = await t.request('GET', '/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await t.request('GET', '/api/health')).status).toBe(200);
  });

  it('serves nothing from outside the SPA directory', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
    ]) {
      const res = await t.request('GET', path);
      expect(res.body).not.toContain('top secret');
    }
  });
});

describe.each(databases)('pages rendered on the server, on %s', (database) => {
  const root = mkdtempSync(join(tmpdir(), 'vitrine-ssr-'));
  const spaDir = join(root, 'dist');
  mkdirSync(join(spaDir, 'assets'), { recursive: true });
  const stylesheet = '<link rel="stylesheet" crossorigin href="/assets/style-abc123.css">';
  writeFileSync(
    join(spaDir, 'index.html'),
    `<!doctype html><title>Vitrine</title>${stylesheet}<body><div id="root"></div></body>`,
  );
  writeFileSync(join(spaDir, 'assets', 'style-abc123.css'), 'body{color:#123}');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const rendered: string[] = [];
  /**
   * A renderer that reads the API the way the real one does (src/entry-server.tsx, exercised by
   * the Playwright journeys): it asks the server in-process and notes the answer.
   */
  const renderPage: PageRenderer = async (url, api) => {
    rendered.push(url);
    if (url.startsWith('/settings')) return null;
    if (url.startsWith('/terms')) throw new Error('render failed');
    if (url.startsWith('/privacy') || url.startsWith('/slow-unknown')) return new Promise(() => {});
    if (url.startsWith('/no-such-page'))
      return { html: '<h1>We couldn’t find that page</h1>', answers: {}, status: 404 };
    const health = await api('http://vitrine.internal/api/health');
    return {
      html: `<h1>${url}</h1><p>${health.status}</p><p>Rock $'n $& roll</p>`,
      answers: { '/api/health': await health.text(), '/api/x': '"</script><script>alert(1)</script>"' },
    };
  };
  const t = useTestApp(database, { production: true, nodeEnv: 'production' }, { spaDir, renderPage });

  it('puts the page and the API answers it read into index.html, inert until the browser takes over', async () => {
    const res = await t.request('GET', '/marketplace?min=10');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(rendered.at(-1)).toBe('/marketplace?min=10');
    const html = res.body as unknown as string;
    expect(html).toContain(
      '<div id="root" inert><h1>/marketplace?min=10</h1><p>200</p><p>Rock $\'n $& roll</p></div>',
    );
    const script = html.match(/<script type="application\/json" id="vt-first-load">(.*?)<\/script>/s)?.[1];
    const answers = JSON.parse(script!) as Record<string, string>;
    expect(JSON.parse(answers['/api/health']!).status).toBeDefined();
    // No answer can close the script element early.
    expect(script).not.toContain('</script>');
    expect(JSON.parse(answers['/api/x']!)).toBe('</script><script>alert(1)</script>');
    // The stylesheet comes inline: the page paints without a second request.
    expect(html).toContain('<title>Vitrine</title><style>body{color:#123}</style><body>');
    expect(html).not.toContain(stylesheet);
  });

  it('answers an unknown path with status 404 and the Not Found page; known pages stay 200', async () => {
    const res = await t.request('GET', '/no-such-page?x=1');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.body).toContain('<div id="root" inert><h1>We couldn’t find that page</h1></div>');
    expect((await t.request('GET', '/marketplace')).status).toBe(200);
  });

  it('serves the plain index.html when the page is left to the browser, fails or is slow', async () => {
    for (const path of ['/settings', '/terms', '/privacy', '/slow-unknown']) {
      const res = await t.request('GET', path);
      // Unrendered, a path no page has is still a 404.
      expect(res.status).toBe(path === '/slow-unknown' ? 404 : 200);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain('vt-first-load');
      // Unrendered, the page links its stylesheet, which the browser keeps for the next page.
      expect(res.body).toContain(stylesheet);
    }
  });

  it('never renders files or the API', async () => {
    rendered.length = 0;
    // A path with a file extension is a file: missing here, it is the plain index.html with a 404.
    expect((await t.request('GET', '/logo.svg')).body).not.toContain('vt-first-load');
    expect((await t.request('GET', '/api/health')).status).toBe(200);
    expect(rendered).toEqual([]);
  });
});
