import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { artImage, artVideo } from '../../server/seed/media';
import { localStorage } from '../../server/storage/local';

describe('seed artwork', () => {
  const root = mkdtempSync(join(tmpdir(), 'vitrine-seed-media-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const cache = join(root, 'cache');

  it('is made once into the cache and copied from it into each store, under seed/', async () => {
    const first = { dir: join(root, 'a', 'seed'), storage: localStorage(join(root, 'a')), cache };
    const url = await artImage(first, 'preview', 'a cached piece', 400, 400);
    const name = url.replace('/media/seed/', '');
    expect(url).toMatch(/^\/media\/seed\/preview-400x400-[0-9a-f]{16}\.jpg$/);
    expect(readFileSync(join(first.dir, name))).toEqual(readFileSync(join(cache, name)));
    expect(await sharp(join(first.dir, name)).metadata()).toMatchObject({ format: 'jpeg', width: 400 });
    // No temporary file is left behind.
    expect(readdirSync(cache)).toEqual([name]);

    // A second data directory gets the kept file, not a new rendering.
    writeFileSync(join(cache, name), 'kept');
    const second = { dir: join(root, 'b', 'seed'), storage: localStorage(join(root, 'b')), cache };
    expect(await artImage(second, 'preview', 'a cached piece', 400, 400)).toBe(url);
    expect(readFileSync(join(second.dir, name), 'utf8')).toBe('kept');
    // A file already in the data directory is left as it is.
    expect(readFileSync(join(first.dir, name), 'utf8')).not.toBe('kept');
  });

  it('encodes a clip through the cache, and makes files without one when the cache cannot be written', async () => {
    const store = { dir: join(root, 'c', 'seed'), storage: localStorage(join(root, 'c')), cache };
    const clip = await artVideo(store, 'a cached clip');
    const name = clip.replace('/media/seed/', '');
    expect(readFileSync(join(store.dir, name)).subarray(4, 8).toString()).toBe('ftyp');
    expect(readdirSync(cache).filter((f) => f.startsWith('.'))).toEqual([]);

    const blocked = join(root, 'not-a-directory');
    writeFileSync(blocked, '');
    const uncached = {
      dir: join(root, 'd', 'seed'),
      storage: localStorage(join(root, 'd')),
      cache: join(blocked, 'cache'),
    };
    const url = await artImage(uncached, 'logo', 'an uncached logo', 200, 200);
    expect(readdirSync(uncached.dir)).toEqual([url.replace('/media/seed/', '')]);
  });
});
