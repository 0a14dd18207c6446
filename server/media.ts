import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import sharp from 'sharp';
import { IMAGE_MAX_SIDE, IMAGE_WIDTHS, type ImageWidth } from '#domain/assets';
import type { Log } from './clock';
import type { Config } from './config';
import { writeWhole } from './files';
import { type AppEnv, errorResponse, notFound } from './http';

/** Media files (seed artwork now, uploads later) live in `<dataDir>/media`. */
export const mediaDir = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'media');

/**
 * WebP quality of the resized copies: visually close to the quality-85 JPEG originals, far smaller.
 * Effort 2 of 6 encodes about twice as fast as the default for files about 5 % larger.
 */
const COPY_QUALITY = 75;
const COPY_EFFORT = 2;

const copyPath = (path: string, width: ImageWidth) => `${path}.w${width}.webp`;

/** Copies being written, by target path: concurrent requests for one copy wait for the same work. */
const writing = new Map<string, Promise<void>>();

/**
 * Writes the WebP copy of the stored JPEG or PNG at `path` at `width` (never wider than the
 * original, turned as its EXIF orientation says) unless it exists. The copy is written whole or
 * not at all (writeWhole), so a reader (or another server sharing the directory) sees a whole file
 * or none.
 */
export function writeImageCopy(path: string, width: ImageWidth): Promise<void> {
  const target = copyPath(path, width);
  if (existsSync(target)) return Promise.resolve();
  let work = writing.get(target);
  if (!work) {
    work = writeWhole(target, (temp) =>
      sharp(path, { limitInputPixels: IMAGE_MAX_SIDE * IMAGE_MAX_SIDE })
        .rotate()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: COPY_QUALITY, effort: COPY_EFFORT })
        .toFile(temp),
    ).finally(() => writing.delete(target));
    writing.set(target, work);
  }
  return work;
}

/**
 * Writes every WebP copy (IMAGE_WIDTHS) of the stored JPEG or PNG at `path`, one after another. The
 * copies at or above the original's width are all the original's size: made once, then copied.
 */
export async function writeImageCopies(path: string): Promise<void> {
  const { width: original } = await sharp(path).metadata();
  let full: string | undefined;
  for (const width of IMAGE_WIDTHS) {
    const target = copyPath(path, width);
    if (full && !existsSync(target)) copyFileSync(full, target);
    else await writeImageCopy(path, width);
    if (original !== undefined && width >= original) full ??= target;
  }
}

/** Stored images of the media directory, in every folder below it. */
function* storedImages(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* storedImages(path);
    else if (/\.(jpe?g|png)$/i.test(entry.name)) yield path;
  }
}

/**
 * Makes the missing copies of every stored image, one image at a time, in the background of a
 * running server (the seeded world's artwork, and images stored by a version without copies);
 * stops early when `signal` aborts. A copy asked for before this reaches it is made on request.
 */
export async function warmImageCopies(
  dir: string,
  signal: AbortSignal,
  log: Pick<Log, 'error'>,
): Promise<void> {
  if (!existsSync(dir)) return;
  for (const path of storedImages(dir)) {
    if (signal.aborted) return;
    if (IMAGE_WIDTHS.every((width) => existsSync(copyPath(path, width)))) continue;
    await writeImageCopies(path).catch((err) => log.error(`resizing ${path} failed`, err));
  }
}

/** `/media/{file}.{jpg|jpeg|png}.w{width}.webp`, a width of IMAGE_WIDTHS, and no `..` segment. */
const COPY_REQUEST = /^\/media\/((?:[\w-]+\/)*[\w.-]+\.(?:jpe?g|png))\.w(\d+)\.webp$/i;

/**
 * Serves /media/* from the media directory. Names carry a content hash, so files (whole or a range
 * of a video) are cached for a year; a missing file is the API's 404. The security headers
 * (nosniff, a policy that lets a file opened on its own run nothing) come from server/security.ts
 * for every answer of the app.
 *
 * A resized copy is normally written when its image is stored; one asked for before that (an image
 * stored by an older version, or a copy still being written) is made on the spot from the original.
 */
export function mountMedia(app: Hono<AppEnv>, dir: string): void {
  mkdirSync(dir, { recursive: true });
  // Set on the finished answer: serveStatic builds its answer before calling onFound, so a header
  // set there is lost.
  app.get('/media/*', async (c, next) => {
    await next();
    if (c.res.status === 200 || c.res.status === 206) {
      c.res.headers.set('Cache-Control', 'public, max-age=31536000, immutable');
    }
  });
  app.get('/media/*', async (c, next) => {
    const match = COPY_REQUEST.exec(c.req.path);
    const width = Number(match?.[2]) as ImageWidth;
    if (match && IMAGE_WIDTHS.includes(width) && !match[1]!.split('/').some((part) => part.startsWith('.'))) {
      const original = join(dir, match[1]!);
      if (statSync(original, { throwIfNoEntry: false })?.isFile()) {
        // An original that cannot be decoded has no copy: the request ends as a 404.
        await writeImageCopy(original, width).catch(() => undefined);
      }
    }
    return next();
  });
  app.get('/media/*', serveStatic({ root: dir, rewriteRequestPath: (path) => path.replace(/^\/media/, '') }));
  app.get('/media/*', (c) => errorResponse(c, notFound()));
}
