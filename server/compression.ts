import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  deflate,
  deflateSync,
  gzip,
  gzipSync,
  type ZlibOptions,
} from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/compress';
import { preparedOf } from './prepared';

/**
 * Compression of text answers: the encoding a client accepts, and the middleware that compresses
 * every text answer not prepared beforehand (prepared answers, server/prepared.ts, are compressed
 * when they are made; the SPA's built files at build time, server/spa.ts).
 */
export type Encoding = 'br' | 'gzip' | 'deflate';

/**
 * The encoding to send, from an Accept-Encoding header: brotli, else gzip, else deflate, when the
 * client takes it (q above 0, or `*`); none otherwise.
 */
export function preferredEncoding(accept: string | undefined): Encoding | undefined {
  if (!accept) return undefined;
  // Clients send one of a few headers (a browser always the same one): each is read once.
  const known = encodingByAccept.get(accept);
  if (known !== undefined) return known || undefined;
  const q = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name.trim(), weight ? Number(weight.slice(2)) || 0 : 1);
  }
  const takes = (name: Encoding) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  const encoding = takes('br') ? 'br' : takes('gzip') ? 'gzip' : takes('deflate') ? 'deflate' : undefined;
  if (accept.length <= 200) {
    if (encodingByAccept.size >= 256) encodingByAccept.clear();
    encodingByAccept.set(accept, encoding ?? '');
  }
  return encoding;
}
/** The encodings chosen so far, by Accept-Encoding header ('' for none). */
const encodingByAccept = new Map<string, Encoding | ''>();

/** Below this many bytes compressing costs more than it saves (as hono/compress's threshold). */
export const COMPRESS_FROM = 1024;

/** Brotli at quality 5, gzip and deflate at level 6: about as fast as each other, for text. */
const options: Record<Encoding, ZlibOptions | { params: Record<number, number> }> = {
  br: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  gzip: { level: 6 },
  deflate: { level: 6 },
};
const compressors = { br: brotliCompressSync, gzip: gzipSync, deflate: deflateSync };
const inThreadPool = {
  br: promisify(brotliCompress),
  gzip: promisify(gzip),
  deflate: promisify(deflate),
};

/** The text compressed in one go, on this thread. */
export function compressed(body: string | Uint8Array, encoding: Encoding): Uint8Array<ArrayBuffer> {
  return compressors[encoding](body, options[encoding]) as Uint8Array<ArrayBuffer>;
}

/** From this size an answer is compressed in libuv's thread pool, so it never holds up other requests. */
const COMPRESS_ASIDE_FROM = 64 * 1024;

const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const VARIES_BY_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;

/**
 * Compresses a text answer (JSON, HTML, CSV, SVG…) of 1 KB or more in the encoding the client
 * accepts, whole, with its Content-Length; every text answer says Vary: Accept-Encoding. An answer
 * already encoded, marked no-transform, partial, or to a HEAD request goes out as it is.
 *
 * Unlike hono/compress it never streams: an answer's body is at hand once its handler returns, and
 * compressing it in one go costs a small fraction of what a CompressionStream costs (set up, piped,
 * sent chunked), and lets a small answer go out unencoded. Headers are changed in place and the
 * new Response replaces the old one outright, so @hono/node-server writes it without a stream.
 */
export function compressAnswers(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (preparedOf(res)) return;
    const headers = res.headers;
    if (!COMPRESSIBLE_CONTENT_TYPE_REGEX.test(headers.get('content-type') ?? '')) return;
    if (headers.has('content-encoding') || NO_TRANSFORM.test(headers.get('cache-control') ?? '')) return;
    const vary = headers.get('vary');
    if (vary !== '*' && !VARIES_BY_ENCODING.test(vary ?? ''))
      headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    if (c.req.method === 'HEAD' || res.status === 204 || res.status === 206 || res.status === 304) return;
    const encoding = preferredEncoding(c.req.header('accept-encoding'));
    if (!encoding) return;
    const bytes = new Uint8Array(await res.arrayBuffer());
    let body: Uint8Array = bytes;
    if (bytes.byteLength >= COMPRESS_FROM) {
      body =
        bytes.byteLength >= COMPRESS_ASIDE_FROM
          ? await inThreadPool[encoding](bytes, options[encoding])
          : compressed(bytes, encoding);
      headers.set('content-encoding', encoding);
      const etag = headers.get('etag');
      if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
    }
    headers.set('content-length', String(body.byteLength));
    // Assigning over an answer makes hono rebuild the new one around the old one's headers (as a
    // stream); the old one is let go first, and the new one carries the same headers already.
    c.res = undefined;
    c.res = new Response(body as Uint8Array<ArrayBuffer>, { status: res.status, headers });
  };
}
