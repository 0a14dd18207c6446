/**
 * A short-lived cache of public catalog answers (marketplace and storefront lists): visitors repeat
 * the same searches, and an answer a second or two old is as good as a fresh one (a new listing
 * takes minutes to appear anyway, SPEC §1). Keyed by the parsed query; never used for a storefront
 * owner's own view. `ttlMs` 0 turns it off. Least recently used entries go first beyond `max`.
 */
export interface AnswerCache {
  get(key: string): string | undefined;
  set(key: string, body: string): void;
  clear(): void;
}

export function createAnswerCache(ttlMs: number, max = 500, now = () => performance.now()): AnswerCache {
  const entries = new Map<string, { body: string; expires: number }>();
  return {
    get(key) {
      if (ttlMs <= 0) return undefined;
      const hit = entries.get(key);
      if (!hit) return undefined;
      entries.delete(key);
      if (hit.expires <= now()) return undefined;
      entries.set(key, hit);
      return hit.body;
    },
    set(key, body) {
      if (ttlMs <= 0) return;
      entries.delete(key);
      entries.set(key, { body, expires: now() + ttlMs });
      while (entries.size > max) entries.delete(entries.keys().next().value!);
    },
    clear: () => entries.clear(),
  };
}
