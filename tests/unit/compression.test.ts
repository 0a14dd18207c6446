import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { compressAnswers, preferredEncoding } from '../../server/compression';

describe('compression of text answers', () => {
  it('takes brotli, else gzip, else deflate, as the client accepts them', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip, br;q=0')).toBe('gzip');
    expect(preferredEncoding('deflate, gzip;q=0')).toBe('deflate');
    // Read from the remembered choice the second time.
    expect(preferredEncoding('deflate, gzip;q=0')).toBe('deflate');
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('*, br;q=0')).toBe('gzip');
    expect(preferredEncoding(undefined)).toBeUndefined();
  });

  const big = { results: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `item ${i}` })) };
  /** Larger than the size from which answers are compressed in the thread pool. */
  const huge = { results: Array.from({ length: 4000 }, (_, i) => ({ id: i, title: `item ${i}` })) };
  const app = new Hono()
    .use(compressAnswers())
    .get('/big', (c) => c.json(big))
    .get('/huge', (c) => c.json(huge))
    .get('/small', (c) => c.json({ status: 'ok' }))
    .get('/varied', (c) => c.json(big, 200, { Vary: 'Cookie', ETag: '"v1"' }))
    .get('/no-transform', (c) => c.json(big, 200, { 'Cache-Control': 'no-transform' }))
    .get('/created', (c) => c.json(big, 201))
    .get('/image', (c) => c.body(new Uint8Array(4096), 200, { 'Content-Type': 'image/png' }));
  const get = (path: string, encoding?: string, method = 'GET') =>
    app.request(path, { method, headers: encoding ? { 'Accept-Encoding': encoding } : {} });
  const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

  it('sends a text answer of 1 KB or more whole, in the encoding the client prefers, with its length', async () => {
    const br = await get('/big', 'gzip, deflate, br, zstd');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const body = await bytes(br);
    expect(Number(br.headers.get('content-length'))).toBe(body.length);
    expect(JSON.parse(brotliDecompressSync(body).toString())).toEqual(big);
    expect(body.length).toBeLessThan(JSON.stringify(big).length / 4);
    const gz = await get('/big', 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(await bytes(gz)).toString())).toEqual(big);
    const created = await get('/created', 'gzip');
    expect(created.status).toBe(201);
    expect(JSON.parse(gunzipSync(await bytes(created)).toString())).toEqual(big);
  });

  it('compresses a large answer aside, to the same bytes a client reads back', async () => {
    const res = await get('/huge', 'br');
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(JSON.parse(brotliDecompressSync(await bytes(res)).toString())).toEqual(huge);
  });

  it('sends a small answer, or one to a client that takes no encoding, as it is: saying Vary all the same', async () => {
    for (const [path, encoding] of [
      ['/small', 'gzip, br'],
      ['/big', undefined],
      ['/big', 'identity'],
    ] as const) {
      const res = await get(path, encoding);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(await res.json()).toEqual(path === '/small' ? { status: 'ok' } : big);
    }
  });

  it('keeps what the answer says of itself: its Vary, a weakened ETag, no-transform, binary types', async () => {
    const varied = await get('/varied', 'gzip');
    expect(varied.headers.get('vary')).toBe('Cookie, Accept-Encoding');
    expect(varied.headers.get('etag')).toBe('W/"v1"');
    const kept = await get('/no-transform', 'gzip');
    expect(kept.headers.get('content-encoding')).toBeNull();
    expect(await kept.json()).toEqual(big);
    const image = await get('/image', 'gzip');
    expect(image.headers.get('content-encoding')).toBeNull();
    expect(image.headers.get('vary')).toBeNull();
    expect((await bytes(image)).length).toBe(4096);
  });

  it('answers a HEAD request without a body or an encoding', async () => {
    const res = await get('/big', 'gzip', 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect((await bytes(res)).length).toBe(0);
  });
});
