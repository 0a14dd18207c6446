import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorage } from '../../server/storage/local';
import { s3Storage } from '../../server/storage/s3';
import {
  forgetStagedUploads,
  type MediaStorage,
  STAGED_PREFIX,
  STAGED_TTL_MS,
} from '../../server/storage/storage';
import { withSeaweed } from './support/seaweed';

/**
 * The media store's contract (server/storage/storage.ts), one suite run against both stores: the
 * local directory and an S3 bucket on a real S3-compatible server (SeaweedFS, started by the test).
 */
const seaweed = withSeaweed();
const root = mkdtempSync(join(tmpdir(), 'vitrine-storage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const stores = {
  local: async () => localStorage(join(root, `media-${Math.random().toString(36).slice(2)}`)),
  s3: async () => s3Storage(await seaweed.bucket()),
};

/** The store's answer to a GET of the key, as the app's /media route gives it. */
const served = (storage: MediaStorage, key: string, headers: Record<string, string> = {}, method = 'GET') =>
  new Hono()
    .all('*', async (c) => (await storage.serve(c, key)) ?? c.text('none', 404))
    .request('/', { method, headers });

describe.each(Object.keys(stores) as (keyof typeof stores)[])('the %s media store', (kind) => {
  let storage: MediaStorage;
  beforeAll(async () => {
    storage = await stores[kind]();
  });
  afterAll(() => storage.close());

  it('stores an object once: a second create of the key changes nothing, of two at once one wins', async () => {
    expect(await storage.create('uploads/u1/a.png', Buffer.from('first'))).toBe(true);
    expect(await storage.create('uploads/u1/a.png', Buffer.from('second'))).toBe(false);
    expect((await storage.read('uploads/u1/a.png'))?.toString()).toBe('first');
    const racing = await Promise.all(
      ['one', 'two', 'three'].map((text) => storage.create('uploads/u1/race.png', Buffer.from(text))),
    );
    expect(racing.filter(Boolean)).toHaveLength(1);
    const winner = ['one', 'two', 'three'][racing.indexOf(true)];
    expect((await storage.read('uploads/u1/race.png'))?.toString()).toBe(winner);
  });

  it('puts, reads, tells whether an object exists and removes it', async () => {
    expect(await storage.read('copies/b.webp')).toBeNull();
    expect(await storage.exists('copies/b.webp')).toBe(false);
    await storage.put('copies/b.webp', Buffer.from('one'));
    await storage.put('copies/b.webp', Buffer.from('two'));
    expect((await storage.read('copies/b.webp'))?.toString()).toBe('two');
    expect(await storage.exists('copies/b.webp')).toBe(true);
    // A folder is no object.
    expect(await storage.exists('copies')).toBe(false);
    expect(await storage.read('copies')).toBeNull();
    await storage.remove('copies/b.webp');
    await storage.remove('copies/b.webp');
    expect(await storage.exists('copies/b.webp')).toBe(false);
  });

  it('lists the objects under a prefix, in every folder below it, with their sizes', async () => {
    await storage.put('list/x/one.jpg', Buffer.from('1'));
    await storage.put('list/x/deeper/two.jpg', Buffer.from('22'));
    await storage.put('list/y.jpg', Buffer.from('333'));
    await storage.put('listed-elsewhere.jpg', Buffer.from('4444'));
    const listed = async (prefix: string) => {
      const found: Record<string, number> = {};
      for await (const object of storage.list(prefix)) {
        expect(object.modified.getTime()).toBeGreaterThan(Date.now() - 5 * 60_000);
        found[object.key] = object.size;
      }
      return found;
    };
    expect(await listed('list/')).toEqual({
      'list/x/one.jpg': 1,
      'list/x/deeper/two.jpg': 2,
      'list/y.jpg': 3,
    });
    expect(await listed('list/x/')).toEqual({ 'list/x/one.jpg': 1, 'list/x/deeper/two.jpg': 2 });
    expect(Object.keys(await listed('list'))).toHaveLength(4);
    expect(await listed('nothing/')).toEqual({});
  });

  it('serves an object with its content type, whole, in ranges, and nothing for a missing key', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
    await storage.put('serve/clip.mp4', bytes);
    const whole = await served(storage, 'serve/clip.mp4');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('content-length')).toBe('1000');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await served(storage, 'serve/clip.mp4', { range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);
    const head = await served(storage, 'serve/clip.mp4', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('1000');
    await storage.put('serve/art.webp', Buffer.from('webp'));
    expect((await served(storage, 'serve/art.webp')).headers.get('content-type')).toBe('image/webp');
    expect((await served(storage, 'serve/gone.png')).status).toBe(404);
  });

  it('refuses a key that is not one (.., a hidden name, an absolute path)', async () => {
    for (const key of ['../escape.png', 'a/../b.png', '.hidden.png', '/abs.png', 'a//b.png', 'a b.png', '']) {
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toThrow(/not a media key/);
      await expect(storage.read(key), key).rejects.toThrow(/not a media key/);
    }
  });

  it('forgets uploads that waited for their checks longer than an hour, and nothing else', async () => {
    await storage.put(`${STAGED_PREFIX}u2/waiting.png`, Buffer.from('staged'));
    await storage.put('uploads/u2/kept.png', Buffer.from('kept'));
    await forgetStagedUploads(storage, new Date(Date.now() + STAGED_TTL_MS - 60_000));
    expect(await storage.exists(`${STAGED_PREFIX}u2/waiting.png`)).toBe(true);
    await forgetStagedUploads(storage, new Date(Date.now() + STAGED_TTL_MS + 60_000));
    expect(await storage.exists(`${STAGED_PREFIX}u2/waiting.png`)).toBe(false);
    expect(await storage.exists('uploads/u2/kept.png')).toBe(true);
  });

  it('answers its check when it can be written, and signs browser uploads only when it is a bucket', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
    expect(storage.presignPut === undefined).toBe(kind === 'local');
  });
});

describe('a store that cannot be used fails its check', () => {
  it('the local directory when its path is a file', async () => {
    const file = join(root, 'not-a-directory');
    writeFileSync(file, '');
    await expect(localStorage(file).check()).rejects.toThrow();
  });

  it('a bucket that does not exist, or wrong credentials', async () => {
    const settings = await seaweed.bucket();
    const missing = s3Storage({ ...settings, bucket: 'no-such-bucket-here' });
    const wrongKey = s3Storage({ ...settings, secretAccessKey: 'not-the-secret' });
    await expect(missing.check()).rejects.toThrow();
    await expect(wrongKey.check()).rejects.toThrow();
    missing.close();
    wrongKey.close();
  });
});

describe('a presigned PUT to the bucket', () => {
  it('takes exactly the signed type and size: another type, a bigger or a smaller body is refused by the store', async () => {
    const storage = s3Storage(await seaweed.bucket());
    const key = `${STAGED_PREFIX}u3/logo.png`;
    const body = Buffer.alloc(2000, 7);
    const url = await storage.presignPut!(key, body.length, 60);
    const put = (bytes: Buffer, type: string) =>
      fetch(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'Content-Type': type } });
    for (const [bytes, type] of [
      [body, 'text/html'],
      [Buffer.alloc(2001, 7), 'image/png'],
      [Buffer.alloc(1999, 7), 'image/png'],
    ] as const) {
      const refused = await put(bytes, type);
      expect(refused.status, `${type}, ${bytes.length} bytes`).toBe(403);
      expect(await refused.text()).toContain('SignatureDoesNotMatch');
    }
    expect(await storage.exists(key)).toBe(false);
    expect((await put(body, 'image/png')).status).toBe(200);
    expect((await storage.read(key))?.equals(body)).toBe(true);
    storage.close();
  });
});

it('leaves no hidden temporary file behind in the local directory', () => {
  const leftovers = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? leftovers(join(dir, entry.name)) : entry.name.startsWith('.') ? [entry.name] : [],
    );
  expect(leftovers(root)).toEqual([]);
});
