import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createAnswerCache, preferredEncoding, sendAnswer } from '../../server/catalog/cache';

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

  it('takes brotli, else gzip, as the client accepts them', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip, br;q=0')).toBe('gzip');
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('*, br;q=0')).toBe('gzip');
    expect(preferredEncoding(undefined)).toBeUndefined();
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
