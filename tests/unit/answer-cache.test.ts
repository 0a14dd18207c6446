import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createAnswerCache, sendAnswer } from '../../server/catalog/cache';
import { compressAnswers } from '../../server/compression';
import { preparedOf, preparedResponse, preparer } from '../../server/prepared';
import { applySecurityHeaders, securityHeaders, securityHeadersFor } from '../../server/security';

describe('the catalog answer cache', () => {
  it('answers within its time to live, then forgets', () => {
    let now = 0;
    const cache = createAnswerCache(2000, 10, () => now);
    cache.set('a', '{"a":1}');
    now = 1999;
    expect(cache.get('a')?.body).toBe('{"a":1}');
    now = 2000;
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the least recently used entry beyond its size', () => {
    const cache = createAnswerCache(60_000, 2, () => 0);
    cache.set('a', 'A');
    cache.set('b', 'B');
    cache.get('a');
    cache.set('c', 'C');
    expect([cache.get('a')?.body, cache.get('b'), cache.get('c')?.body]).toEqual(['A', undefined, 'C']);
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
  });

  it('is off at 0 ms, and still hands back the answer to send', () => {
    const cache = createAnswerCache(0);
    expect(cache.set('a', 'A').body).toBe('A');
    expect(cache.get('a')).toBeUndefined();
  });

  it('sends an answer compressed once per entry, in the encoding the client accepts', async () => {
    const cache = createAnswerCache(60_000);
    const json = JSON.stringify({
      results: Array.from({ length: 50 }, (_, i) => ({ id: i, title: `item ${i}` })),
    });
    const app = new Hono().get('/x', (c) => sendAnswer(c, cache.get('x') ?? cache.set('x', json)));
    const get = (encoding?: string) =>
      app.request('/x', { headers: encoding ? { 'Accept-Encoding': encoding } : {} });
    const plain = await get();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-type')).toBe('application/json');
    expect(await plain.text()).toBe(json);
    const br = await get('gzip, deflate, br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const bytes = Buffer.from(await br.arrayBuffer());
    expect(bytes.length).toBeLessThan(json.length / 3);
    expect(brotliDecompressSync(bytes).toString()).toBe(json);
    // The second client gets the bytes made for the first, kept with the answer.
    const kept = cache.get('x')?.encoded.get('br');
    expect(kept && Buffer.from(kept).equals(bytes)).toBe(true);
    expect(Buffer.from(await (await get('br')).arrayBuffer()).equals(bytes)).toBe(true);
    expect(cache.get('x')?.encoded.get('br')).toBe(kept);
    const gz = await get('gzip, br;q=0');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(json);
    const deflated = await get('deflate');
    expect(deflated.headers.get('content-encoding')).toBe('deflate');
    expect(inflateSync(Buffer.from(await deflated.arrayBuffer())).toString()).toBe(json);
    // Each form goes out with the same headers every time: made once, with the security headers.
    const again = await get('gzip, deflate, br');
    expect(preparedOf(again)).toBe(preparedOf(await get('br')));
    expect(again.headers.get('x-content-type-options')).toBe('nosniff');
    expect(again.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    // A short answer is not worth compressing.
    const small = new Hono().get('/s', (c) => sendAnswer(c, cache.set('s', '{"results":[]}')));
    expect(
      (await small.request('/s', { headers: { 'Accept-Encoding': 'br' } })).headers.get('content-encoding'),
    ).toBeNull();
  });

  it('makes an answer once for requests that ask for it at the same time', async () => {
    const cache = createAnswerCache(60_000);
    let made = 0;
    let release = () => {};
    const make = () =>
      new Promise<string>((resolve) => {
        made++;
        release = () => resolve(`{"n":${made}}`);
      });
    const asked = [cache.answer('k', make), cache.answer('k', make), cache.answer('k', make)];
    release();
    const answers = await Promise.all(asked);
    expect(made).toBe(1);
    expect(new Set(answers).size).toBe(1);
    expect((await cache.answer('k', make)).body).toBe('{"n":1}');
    expect(made).toBe(1);
  });

  it('sends but does not keep an answer whose making began before the cache was cleared', async () => {
    const cache = createAnswerCache(60_000);
    let release = (_: string) => {};
    const pending = cache.answer('k', () => new Promise<string>((resolve) => (release = resolve)));
    cache.clear();
    release('{"stale":true}');
    expect((await pending).body).toBe('{"stale":true}');
    expect(cache.get('k')).toBeUndefined();
    expect((await cache.answer('k', async () => '{"fresh":true}')).body).toBe('{"fresh":true}');
  });

  it('makes every answer afresh when off', async () => {
    const cache = createAnswerCache(0);
    let made = 0;
    const make = async () => `{"n":${++made}}`;
    await Promise.all([cache.answer('k', make), cache.answer('k', make)]);
    expect(made).toBe(2);
  });
});

describe('prepared answers', () => {
  const body = new TextEncoder().encode(JSON.stringify({ text: 'x'.repeat(2000) }));
  /** An app with the app's answer-wide middleware (security headers, compression) around a route. */
  const appWith = (route: () => Response, googlePayScript = false) => {
    return new Hono()
      .use(securityHeaders({ googlePayScript: () => googlePayScript }))
      .use(compressAnswers())
      .get('/x', route);
  };
  /** The headers an ordinary answer of this content type gets from the security middleware. */
  const secured = (type: string) => {
    const headers = new Headers({ 'content-type': type });
    applySecurityHeaders(headers);
    return Object.fromEntries(headers);
  };

  it('go out as prepared, with the security headers of their type, and are not compressed again', async () => {
    const ready = preparer(
      { 'Content-Type': 'application/json', Vary: 'Accept-Encoding' },
      securityHeadersFor('application/json'),
    )(200, body);
    const res = await appWith(() => preparedResponse(ready)).request('/x', {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(Object.fromEntries(res.headers)).toEqual({
      ...secured('application/json'),
      vary: 'Accept-Encoding',
    });
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(body))).toBe(true);
  });

  it('get the security headers added when theirs are not the set their type needs', async () => {
    const ready = preparer({ 'Content-Type': 'text/html' }, securityHeadersFor('application/json'))(
      200,
      body,
    );
    const res = await appWith(() => preparedResponse(ready)).request('/x');
    expect(res.headers.get('content-security-policy')).toBe(secured('text/html')['content-security-policy']);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('keep the same security headers as any answer, Google Pay or not', () => {
    for (const type of [
      'application/json',
      'text/html; charset=UTF-8',
      'text/javascript',
      'image/png',
      null,
    ]) {
      for (const googlePay of [false, true]) {
        const headers = new Headers(type ? { 'content-type': type } : {});
        applySecurityHeaders(headers, { googlePayScript: () => googlePay });
        expect(Object.fromEntries(headers)).toEqual(
          Object.fromEntries(
            new Headers({
              ...(type ? { 'content-type': type } : {}),
              ...securityHeadersFor(type, googlePay),
            }),
          ),
        );
      }
    }
    // The same set is the same object, whatever the type it was asked for.
    expect(securityHeadersFor('application/json')).toBe(securityHeadersFor('text/csv'));
    expect(securityHeadersFor('application/json', true)).toBe(securityHeadersFor('application/json'));
    expect(securityHeadersFor('text/html', true)).not.toBe(securityHeadersFor('text/html'));
  });
});
