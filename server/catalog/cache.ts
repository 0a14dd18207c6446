import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { type Prepared, preparedResponse, preparer } from '../prepared';
import { securityHeadersFor } from '../security';

/**
 * A short-lived cache of public catalog answers (marketplace and storefront lists): visitors repeat
 * the same searches, and an answer a second or two old is as good as a fresh one (a new listing
 * takes minutes to appear anyway). Keyed by the parsed query; never used for a storefront owner's
 * own view. `ttlMs` 0 turns it off. Least recently used entries go first beyond `max`.
 */
export interface AnswerCache {
  get(key: string): CachedAnswer | undefined;
  /** Keeps the answer (unless the cache is off) and hands it back, ready to send. */
  set(key: string, body: string): CachedAnswer;
  /**
   * The kept answer for the key, else one made by `make` and kept. Requests that ask for the same
   * key while it is being made share that one making: a popular search that just expired costs
   * one query, not one per visitor.
   */
  answer(key: string, make: () => Promise<string>): Promise<CachedAnswer>;
  clear(): void;
}

/**
 * A JSON answer, the compressed forms of it made so far, and the forms ready to send with their
 * headers (each made at most once).
 */
export interface CachedAnswer {
  readonly body: string;
  readonly encoded: Map<Encoding, Uint8Array>;
  readonly ready: Map<Encoding | 'identity', Prepared>;
}

export function createAnswerCache(ttlMs: number, max = 500, now = () => performance.now()): AnswerCache {
  const entries = new Map<string, { answer: CachedAnswer; expires: number }>();
  const making = new Map<string, Promise<CachedAnswer>>();
  /** Bumped by clear(): an answer read before a change is sent, never kept. */
  let generation = 0;
  const cache: AnswerCache = {
    get(key) {
      if (ttlMs <= 0) return undefined;
      const hit = entries.get(key);
      if (!hit) return undefined;
      entries.delete(key);
      if (hit.expires <= now()) return undefined;
      entries.set(key, hit);
      return hit.answer;
    },
    set(key, body) {
      const answer: CachedAnswer = { body, encoded: new Map(), ready: new Map() };
      if (ttlMs <= 0) return answer;
      entries.delete(key);
      entries.set(key, { answer, expires: now() + ttlMs });
      while (entries.size > max) entries.delete(entries.keys().next().value!);
      return answer;
    },
    answer(key, make) {
      if (ttlMs <= 0) return make().then((body) => ({ body, encoded: new Map(), ready: new Map() }));
      const kept = cache.get(key);
      if (kept) return Promise.resolve(kept);
      let pending = making.get(key);
      if (!pending) {
        const started = generation;
        const made = make().then((body) =>
          started === generation ? cache.set(key, body) : { body, encoded: new Map(), ready: new Map() },
        );
        pending = made.finally(() => {
          if (making.get(key) === pending) making.delete(key);
        });
        making.set(key, pending);
      }
      return pending;
    },
    clear: () => {
      entries.clear();
      making.clear();
      generation++;
    },
  };
  return cache;
}

type Encoding = 'br' | 'gzip' | 'deflate';

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
const COMPRESS_FROM = 1024;

const JSON_HEADERS = { 'Content-Type': 'application/json', Vary: 'Accept-Encoding' };
/** The security headers of a JSON answer (server/security.ts). */
const JSON_SECURITY = securityHeadersFor(JSON_HEADERS['Content-Type']);
/** A JSON answer's form as it goes out, with all its headers, for each encoding. */
const prepareJson = {
  identity: preparer(JSON_HEADERS, JSON_SECURITY),
  br: preparer({ ...JSON_HEADERS, 'Content-Encoding': 'br' }, JSON_SECURITY),
  gzip: preparer({ ...JSON_HEADERS, 'Content-Encoding': 'gzip' }, JSON_SECURITY),
  deflate: preparer({ ...JSON_HEADERS, 'Content-Encoding': 'deflate' }, JSON_SECURITY),
} satisfies Record<Encoding | 'identity', unknown>;
const utf8 = new TextEncoder();

function compressed(body: string, encoding: Encoding): Uint8Array<ArrayBuffer> {
  const bytes =
    encoding === 'br'
      ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
      : encoding === 'gzip'
        ? gzipSync(body, { level: 6 })
        : deflateSync(body, { level: 6 });
  return bytes as Uint8Array<ArrayBuffer>;
}

/**
 * The answer as a response, compressed in the encoding the client accepts: made once per cached
 * answer (brotli at quality 5, gzip and deflate at level 6), so a repeated search costs no
 * compression. An answer below 1 KB goes out as it is, whatever the client accepts. Each form is
 * kept ready to send with all its headers, security headers included (server/prepared.ts): the
 * app's security headers and compression middleware leave it as it is.
 */
export function sendAnswer(c: Context, answer: CachedAnswer): Response {
  const encoding =
    answer.body.length >= COMPRESS_FROM ? preferredEncoding(c.req.header('accept-encoding')) : undefined;
  const form = encoding ?? 'identity';
  let ready = answer.ready.get(form);
  if (!ready) {
    let bytes: Uint8Array<ArrayBuffer>;
    if (encoding) {
      bytes =
        (answer.encoded.get(encoding) as Uint8Array<ArrayBuffer> | undefined) ??
        compressed(answer.body, encoding);
      answer.encoded.set(encoding, bytes);
    } else bytes = utf8.encode(answer.body);
    ready = prepareJson[form](200, bytes);
    answer.ready.set(form, ready);
  }
  return preparedResponse(ready);
}
