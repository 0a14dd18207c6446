import type { Context } from 'hono';
import { COMPRESS_FROM, compressed, type Encoding, preferredEncoding } from '../compression';
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

/** A JSON answer with none of its forms made yet. */
export const answerOf = (body: string): CachedAnswer => ({ body, encoded: new Map(), ready: new Map() });

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
      const answer = answerOf(body);
      if (ttlMs <= 0) return answer;
      entries.delete(key);
      entries.set(key, { answer, expires: now() + ttlMs });
      while (entries.size > max) entries.delete(entries.keys().next().value!);
      return answer;
    },
    answer(key, make) {
      if (ttlMs <= 0) return make().then((body) => answerOf(body));
      const kept = cache.get(key);
      if (kept) return Promise.resolve(kept);
      let pending = making.get(key);
      if (!pending) {
        const started = generation;
        const made = make().then((body) => (started === generation ? cache.set(key, body) : answerOf(body)));
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
