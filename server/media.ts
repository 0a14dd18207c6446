import type { Hono } from 'hono';
import sharp from 'sharp';
import { IMAGE_MAX_SIDE, IMAGE_WIDTHS, type ImageWidth } from '#domain/assets';
import type { Log } from './clock';
import { type AppEnv, errorResponse, IMMUTABLE, notFound } from './http';
import { OG_PREFIX } from './og/images';
import { isMediaKey, type MediaStorage, STAGED_PREFIX } from './storage/storage';

export { mediaDir } from './storage/config';

/**
 * WebP quality of the resized copies: visually close to the quality-85 JPEG originals, far smaller.
 * Effort 2 of 6 encodes about twice as fast as the default for files about 5 % larger.
 */
const COPY_QUALITY = 75;
const COPY_EFFORT = 2;

const copyKey = (key: string, width: ImageWidth) => `${key}.w${width}.webp`;

/** The WebP copy of a JPEG or PNG at `width` (never wider than the original, turned as its EXIF orientation says). */
const resized = (original: Buffer, width: ImageWidth) =>
  sharp(original, { limitInputPixels: IMAGE_MAX_SIDE * IMAGE_MAX_SIDE })
    .rotate()
    .resize({ width, withoutEnlargement: true })
    .webp({ quality: COPY_QUALITY, effort: COPY_EFFORT })
    .toBuffer();

/** Copies being written, by store and key: concurrent requests for one copy wait for the same work. */
const writing = new WeakMap<MediaStorage, Map<string, Promise<void>>>();

/**
 * Writes the WebP copy of the stored JPEG or PNG `key` at `width` unless it exists. The store
 * writes it whole or not at all, so a reader (or another server sharing the store) sees a whole
 * copy or none.
 */
export function writeImageCopy(storage: MediaStorage, key: string, width: ImageWidth): Promise<void> {
  const target = copyKey(key, width);
  const jobs = writing.get(storage) ?? new Map<string, Promise<void>>();
  writing.set(storage, jobs);
  let work = jobs.get(target);
  if (!work) {
    work = (async () => {
      if (await storage.exists(target)) return;
      const original = await storage.read(key);
      if (!original) throw new Error(`no stored image ${key}`);
      await storage.put(target, await resized(original, width));
    })().finally(() => jobs.delete(target));
    jobs.set(target, work);
  }
  return work;
}

/**
 * Writes every missing WebP copy (IMAGE_WIDTHS) of the stored JPEG or PNG `key`, one after another,
 * from its bytes (read from the store unless given). The copies at or above the original's width
 * are all the original's size: made once, then stored again.
 */
export async function writeImageCopies(storage: MediaStorage, key: string, original?: Buffer): Promise<void> {
  const bytes = original ?? (await storage.read(key));
  if (!bytes) throw new Error(`no stored image ${key}`);
  const { width: originalWidth } = await sharp(bytes).metadata();
  let full: Buffer | undefined;
  for (const width of IMAGE_WIDTHS) {
    const target = copyKey(key, width);
    if (await storage.exists(target)) continue;
    const copy = full ?? (await resized(bytes, width));
    await storage.put(target, copy);
    if (originalWidth !== undefined && width >= originalWidth) full = copy;
  }
}

/**
 * Makes the missing copies of every stored image, one image at a time, in the background of a
 * running server (the seeded world's artwork, and images stored by a version without copies);
 * stops early when `signal` aborts. A copy asked for before this reaches it is made on request.
 */
export async function warmImageCopies(
  storage: MediaStorage,
  signal: AbortSignal,
  log: Pick<Log, 'error'>,
): Promise<void> {
  const keys = new Set<string>();
  for await (const object of storage.list('')) {
    if (signal.aborted) return;
    keys.add(object.key);
  }
  for (const key of keys) {
    if (signal.aborted) return;
    // Share images (server/og) are drawn at their one size: no copies.
    if (key.startsWith(STAGED_PREFIX) || key.startsWith(OG_PREFIX) || !/\.(jpe?g|png)$/i.test(key)) continue;
    if (IMAGE_WIDTHS.every((width) => keys.has(copyKey(key, width)))) continue;
    await writeImageCopies(storage, key).catch((err) => log.error(`resizing ${key} failed`, err));
  }
}

/** `{key}.{jpg|jpeg|png}.w{width}.webp`: the copy of an image at a width. */
const COPY_KEY = /^(.+\.(?:jpe?g|png))\.w(\d+)\.webp$/i;

/** How long a browser or CDN keeps the redirect to MEDIA_PUBLIC_URL (it may change: not forever). */
const REDIRECT_CACHE = 'public, max-age=86400';

/**
 * Serves /media/{key}: streamed from the store, or with `publicUrl` (MEDIA_PUBLIC_URL, a CDN or a
 * public bucket) a 302 to `{publicUrl}/{key}`. Names never change their content, so files (whole or
 * a range of a video) are cached for a year; a missing file, a key that is not one, or an upload
 * still waiting for its checks (STAGED_PREFIX) is the API's 404. The security headers (nosniff, a
 * policy that lets a file opened on its own run nothing) come from server/security.ts for every
 * answer of the app.
 *
 * A resized copy is normally written when its image is stored; one asked for before that (an image
 * stored by an older version, or a copy still being written) is made on the spot from the original.
 */
export function mountMedia(app: Hono<AppEnv>, storage: MediaStorage, publicUrl?: string): void {
  // Set on the finished answer: the store's answer is built before it returns.
  app.get('/media/*', async (c, next) => {
    await next();
    if (c.res.status === 200 || c.res.status === 206) {
      c.res.headers.set('Cache-Control', IMMUTABLE);
    }
  });
  app.get('/media/*', async (c) => {
    const key = c.req.path.slice('/media/'.length);
    if (!isMediaKey(key) || key.startsWith(STAGED_PREFIX)) return errorResponse(c, notFound());
    const copy = COPY_KEY.exec(key);
    const width = Number(copy?.[2]) as ImageWidth;
    // An original that cannot be decoded (or is not there) has no copy: the request ends as a 404.
    const makeCopy = () =>
      copy && IMAGE_WIDTHS.includes(width)
        ? writeImageCopy(storage, copy[1]!, width).then(
            () => true,
            () => false,
          )
        : Promise.resolve(false);
    if (publicUrl) {
      await makeCopy();
      c.header('Cache-Control', REDIRECT_CACHE);
      return c.redirect(`${publicUrl}/${key}`, 302);
    }
    const answer = (await storage.serve(c, key)) ?? ((await makeCopy()) ? await storage.serve(c, key) : null);
    return answer ?? errorResponse(c, notFound());
  });
}
