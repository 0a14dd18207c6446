import { describe, expect, it } from 'vitest';
import { createAnswerCache } from '../../server/catalog/cache';

describe('the catalog answer cache', () => {
  it('answers within its time to live, then forgets', () => {
    let now = 0;
    const cache = createAnswerCache(2000, 10, () => now);
    cache.set('a', '{"a":1}');
    now = 1999;
    expect(cache.get('a')).toBe('{"a":1}');
    now = 2000;
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the least recently used entry beyond its size', () => {
    const cache = createAnswerCache(60_000, 2, () => 0);
    cache.set('a', 'A');
    cache.set('b', 'B');
    cache.get('a');
    cache.set('c', 'C');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['A', undefined, 'C']);
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
  });

  it('is off at 0 ms', () => {
    const cache = createAnswerCache(0);
    cache.set('a', 'A');
    expect(cache.get('a')).toBeUndefined();
  });
});
