import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { outbox, users } from '../../server/db/schema';
import { mediaDir } from '../../server/media';
import { createCheckoutComProvider } from '../../server/payments/checkout-com';
import { databases, type Json, newAccount, register, useTestApp } from './support/harness';
import { flatImage } from './support/uploads';

const DOCUMENT_DIRECTIVES = [
  "script-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
];
const RESOURCE_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | null): Record<string, string> {
  return Object.fromEntries(
    (policy ?? '')
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0]!, d]),
  );
}

/** The headers every answer carries, whatever its type. */
function expectSubresourceHeaders(headers: Headers) {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
}

/** The headers of every answer a browser could show as a page of its own (all but scripts and CSS). */
function expectCommonHeaders(headers: Headers) {
  expectSubresourceHeaders(headers);
  expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(headers.get('x-frame-options')).toBe('DENY');
  const permissions = headers.get('permissions-policy') ?? '';
  for (const feature of ['camera', 'microphone', 'geolocation', 'bluetooth', 'serial']) {
    expect(permissions).toContain(`${feature}=()`);
  }
  expect(permissions).toContain('payment=(self)');
}

describe.each(databases)('security headers on %s', (database) => {
  const root = mkdtempSync(join(tmpdir(), 'vitrine-dist-'));
  const spaDir = join(root, 'dist');
  mkdirSync(join(spaDir, 'assets'), { recursive: true });
  writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>Vitrine</title>');
  writeFileSync(join(spaDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(spaDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const t = useTestApp(database, { production: true, nodeEnv: 'production' }, { spaDir });

  it('sends the document policy on index.html and its history-routing fallback', async () => {
    for (const path of ['/', '/marketplace', '/auth/reset-password?t=abc']) {
      const res = await t.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const policy = directives(res.headers.get('content-security-policy'));
      expect(Object.values(policy).sort()).toEqual([...DOCUMENT_DIRECTIVES].sort());
      // FCL talks to the access node and frames or pops up wallets at their own origins.
      expect(policy['default-src']).toBeUndefined();
      expect(policy['connect-src']).toBeUndefined();
      expect(policy['frame-src']).toBeUndefined();
      expectCommonHeaders(res.headers);
    }
  });

  it('sends the strict policy on API answers, errors and 404s', async () => {
    const answers = [
      await t.request('GET', '/api/health'),
      await t.request('GET', '/api/nothing-here'),
      await t.request('GET', '/api/users/me'),
      await t.request('POST', '/api/auth/logins', { body: { email: 'not an email' } }),
      await t.request('POST', '/api/auth/logins', { raw: 'email=a@b.co' }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 401, 400, 415]);
    for (const res of answers) {
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.headers.get('content-security-policy')).toBe(RESOURCE_POLICY);
      expectCommonHeaders(res.headers);
    }
  });

  it('sends nosniff and the file policy on /media files (cached for a year), and the strict policy on their 404', async () => {
    const dir = join(mediaDir(t.config), 'seed');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'art-1a2b.png'), await flatImage(10, 10));
    writeFileSync(join(dir, 'clip-1a2b.mp4'), Buffer.from([0, 0, 0, 0x18]));
    for (const [path, type] of [
      ['/media/seed/art-1a2b.png', 'image/png'],
      ['/media/seed/clip-1a2b.mp4', 'video/mp4'],
    ] as const) {
      const res = await t.app.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      const policy = directives(res.headers.get('content-security-policy'));
      expect(policy['default-src']).toBe("default-src 'none'");
      expect(policy['script-src']).toBeUndefined();
      expect(policy['frame-ancestors']).toBe("frame-ancestors 'none'");
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expectCommonHeaders(res.headers);
    }
    const range = await t.app.request('/media/seed/clip-1a2b.mp4', { headers: { range: 'bytes=0-1' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectCommonHeaders(range.headers);
    const missing = await t.request('GET', '/media/seed/gone.png');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toBe(RESOURCE_POLICY);
    expectCommonHeaders(missing.headers);
  });

  it('sends the headers on SPA files: no policy or document headers on scripts, the file policy on images', async () => {
    const script = await t.request('GET', '/assets/index-abc123.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-security-policy')).toBeNull();
    expectSubresourceHeaders(script.headers);
    // Read only on documents: not repeated on every chunk.
    expect(script.headers.get('permissions-policy')).toBeNull();
    expect(script.headers.get('referrer-policy')).toBeNull();
    expect(script.headers.get('x-frame-options')).toBeNull();
    // An immutable file goes without a request id; a page has one.
    expect(script.headers.get('x-request-id')).toBeNull();
    expect((await t.request('GET', '/')).headers.get('x-request-id')).toMatch(/\S/);

    const icon = await t.request('GET', '/favicon.svg');
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
    expect(directives(icon.headers.get('content-security-policy'))['default-src']).toBe("default-src 'none'");
    expectCommonHeaders(icon.headers);

    const missing = await t.request('GET', '/assets/index-gone.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toBe(RESOURCE_POLICY);
    expectCommonHeaders(missing.headers);
  });
});

describe.each(databases)('JSON-only request bodies on %s', (database) => {
  const t = useTestApp(database);

  const userByEmail = (email: string) =>
    t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  /** The emails written for the address (one outbox row each). */
  const emailsTo = (to: string) => t.database.db.select().from(outbox).where(eq(outbox.to, to));
  const expect415 = (res: { status: number; body: Json }) => {
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Requests must be sent as JSON.' });
  };

  it('refuses a text/plain registration (a cross-site form) with 415 and creates no user', async () => {
    const account = newAccount();
    expect415(
      await t.request('POST', '/api/users/registrations', {
        raw: JSON.stringify(account),
        headers: { 'content-type': 'text/plain' },
      }),
    );
    // What a form with enctype="text/plain" or a no-cors fetch with a string body sends.
    expect415(
      await t.request('POST', '/api/users/registrations', {
        raw: JSON.stringify(account),
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
      }),
    );
    expect(await userByEmail(account.email)).toEqual([]);

    const created = await t.request('POST', '/api/users/registrations', { body: account });
    expect(created.status).toBe(201);
    expect(await userByEmail(account.email)).toHaveLength(1);
  });

  it('refuses form-encoded, multipart and untyped non-empty bodies', async () => {
    const account = newAccount();
    const fields = Object.entries(account).map(([name, value]) => [name, String(value)]);
    const form = new FormData();
    for (const [name, value] of fields) form.set(name!, value!);
    const attempts = [
      t.app.request('/api/users/registrations', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
      t.app.request('/api/users/registrations', { method: 'POST', body: form }),
      // A no-cors fetch with a byte body sends no content type at all.
      t.app.request('/api/users/registrations', {
        method: 'POST',
        body: new TextEncoder().encode(JSON.stringify(account)),
      }),
      t.app.request('/api/users/registrations', {
        method: 'POST',
        headers: { 'content-type': 'text/plain; application/json' },
        body: JSON.stringify(account),
      }),
      t.app.request('/api/users/registrations', {
        method: 'POST',
        headers: { 'content-type': 'application/jsonp' },
        body: JSON.stringify(account),
      }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect415({ status: res.status, body: await res.json() });
    }
    expect(await userByEmail(account.email)).toEqual([]);
  });

  it('refuses a text/plain password-reset request with 415 and sends no email', async () => {
    const { email } = await register(t);
    expect415(
      await t.request('POST', '/api/auth/logins/passwords/resets', {
        raw: JSON.stringify({ email }),
        headers: { 'content-type': 'text/plain' },
      }),
    );
    expect415(
      await t.request('POST', '/api/auth/logins/passwords/resets', {
        raw: `email=${encodeURIComponent(email)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
    expect(await emailsTo(email)).toEqual([]);

    const sent = await t.request('POST', '/api/auth/logins/passwords/resets', { body: { email } });
    expect(sent.status).toBe(204);
    expect(await emailsTo(email)).toHaveLength(1);
  });

  it('accepts application/json with or without a charset, in any case', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset="UTF-8"',
    ]) {
      const account = newAccount();
      const res = await t.request('POST', '/api/users/registrations', {
        raw: JSON.stringify(account),
        headers: { 'content-type': type },
      });
      expect(res.status).toBe(201);
    }
  });

  it('refuses text/plain on PATCH and DELETE too, before anything else', async () => {
    const me = await register(t);
    expect415(
      await t.request('PATCH', '/api/users/me', {
        raw: JSON.stringify({ firstName: 'Mallory' }),
        token: me.authToken,
        headers: { 'content-type': 'text/plain' },
      }),
    );
    expect((await t.request('GET', '/api/users/me', { token: me.authToken })).body.firstName).toBe('Ada');
    expect415(
      await t.request('DELETE', '/api/users/me', { raw: 'x', headers: { 'content-type': 'text/plain' } }),
    );
  });

  it('lets bodiless requests without a content type through (ky.post without json)', async () => {
    const proof = await t.request('POST', '/api/users/wallets/actions/request-account-proof');
    expect(proof.status).toBe(201);
    expect(proof.body.nonce).toMatch(/^[0-9a-f]{64}$/);
    const empty = await t.app.request('/api/users/wallets/actions/request-account-proof', {
      method: 'POST',
      body: new Uint8Array(0),
    });
    expect(empty.status).toBe(201);
    // Reads are never refused, whatever content type they name.
    const health = await t.request('GET', '/api/health', { headers: { 'content-type': 'text/plain' } });
    expect(health.status).toBe(200);
  });

  it('still takes raw image bytes at a signed upload URL, typed or not', async () => {
    const me = await register(t);
    for (const [objectKey, headers] of [
      ['typed.png', { 'content-type': 'image/png' }],
      ['untyped.png', undefined],
      ['plain.png', { 'content-type': 'text/plain' }],
    ] as const) {
      const grant = await t.request(
        'GET',
        `/api/assets/upload-url?${new URLSearchParams({ mimeType: 'image/png', objectKey, assetKind: 'userAvatar' })}`,
        { token: me.authToken },
      );
      expect(grant.status).toBe(200);
      const stored = await t.app.request(grant.body.url, {
        method: 'PUT',
        headers,
        body: new Uint8Array(await flatImage(300, 300)),
      });
      expect(stored.status).toBe(200);
      expect((await t.app.request(grant.body.publicUrl)).status).toBe(200);
    }
  });

  it('still takes the multipart form of an image job', async () => {
    const me = await register(t);
    const grant = await t.request(
      'GET',
      `/api/assets/upload-url?${new URLSearchParams({ mimeType: 'image/png', objectKey: 'job.png', assetKind: 'userAvatar' })}`,
      { token: me.authToken },
    );
    const form = new FormData();
    form.set('file', new File([new Uint8Array(await flatImage(300, 300))], 'job.png', { type: 'image/png' }));
    form.set('uploadUrl', grant.body.url);
    const started = await t.app.request('/api/image-jobs', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${me.authToken}` },
    });
    expect(started.status).toBe(201);
    const { jobId } = (await started.json()) as { jobId: string };
    let job: Json = { status: 'pending' };
    for (let i = 0; i < 50 && job.status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await t.request('GET', `/api/image-jobs/${jobId}`, { token: me.authToken })).body;
    }
    expect(job.status).toBe('complete');
  });
});

describe.each(databases)('Google Pay’s script in the document policy on %s', (database) => {
  const root = mkdtempSync(join(tmpdir(), 'vitrine-dist-'));
  const spaDir = join(root, 'dist');
  mkdirSync(spaDir, { recursive: true });
  writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>Vitrine</title>');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // Checkout.com itself (nothing here calls it) with Google Pay in PRODUCTION: the browser loads
  // Google's script, so the pages allow it.
  const checkoutCom = {
    mode: 'external' as const,
    apiUrl: 'https://api.sandbox.checkout.com',
    publicKey: 'pk_sbox_vitrinetestkey0000000000000',
    secretKey: 'sk_sbox_vitrinetestkey0000000000000',
    webhookSignatureKey: 'whsec_vitrine_test',
    sandboxPort: 0,
  };
  const googlePay = {
    merchantId: 'BCR2DN4T1234567',
    merchantName: 'Vitrine',
    environment: 'PRODUCTION' as const,
  };
  const t = useTestApp(
    database,
    { production: true, nodeEnv: 'production', checkoutCom, googlePay },
    {
      spaDir,
      cardProvider: createCheckoutComProvider({
        apiUrl: checkoutCom.apiUrl,
        publicKey: checkoutCom.publicKey,
        secretKey: checkoutCom.secretKey,
        webhookSignatureKey: checkoutCom.webhookSignatureKey,
      }),
    },
  );
  const page = async () => {
    const res = await t.request('GET', '/checkout');
    expect(res.headers.get('content-type')).toContain('text/html');
    return directives(res.headers.get('content-security-policy'));
  };
  const payments = async () => (await t.request('GET', '/api/config/payments')).body;

  it('allows https://pay.google.com scripts and www.gstatic.com images while real Google Pay is on, else only our origin', async () => {
    // Real Google Pay: the browser is told to load Google's script (no stand-ins)…
    expect(await payments()).toMatchObject({
      walletStandIns: false,
      googlePay: {
        gateway: 'checkoutltd',
        environment: 'PRODUCTION',
        gatewayMerchantId: checkoutCom.publicKey,
      },
    });
    // …and the page's policy lets it, and nothing else changes.
    const on = await page();
    expect(on['script-src']).toBe("script-src 'self' https://pay.google.com");
    expect(on['img-src']).toBe("img-src 'self' data: blob: https://www.gstatic.com");
    const others = (policy: Record<string, string>) =>
      Object.entries(policy).filter(([name]) => name !== 'script-src' && name !== 'img-src');
    expect(others(on)).toEqual(others(directives(DOCUMENT_DIRECTIVES.join('; '))));
    expect(on['connect-src']).toBeUndefined();
    expect(on['frame-src']).toBeUndefined();
    // API answers keep the strict policy.
    expect((await t.request('GET', '/api/health')).headers.get('content-security-policy')).toBe(
      RESOURCE_POLICY,
    );

    const documentPolicy = async () => Object.values(await page()).sort();
    const selfOnly = [...DOCUMENT_DIRECTIVES].sort();
    // Google Pay off: no Google script.
    t.config.googlePay = null;
    try {
      expect((await payments()).googlePay).toBeNull();
      expect(await documentPolicy()).toEqual(selfOnly);
    } finally {
      t.config.googlePay = googlePay;
    }
    // The embedded card sandbox: the stand-in plays Google Pay, nothing is loaded from Google.
    t.config.checkoutCom = { ...checkoutCom, mode: 'embedded' };
    try {
      expect(await payments()).toMatchObject({
        walletStandIns: true,
        googlePay: { environment: 'PRODUCTION' },
      });
      expect(await documentPolicy()).toEqual(selfOnly);
    } finally {
      t.config.checkoutCom = checkoutCom;
    }
    expect((await page())['script-src']).toBe("script-src 'self' https://pay.google.com");
  });
});
