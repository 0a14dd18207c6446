import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import * as v from 'valibot';
import {
  type AssetKind,
  assetKinds,
  assetRules,
  checkImage,
  IMAGE_MAX_SIDE,
  type ImageFormat,
  mimeTypes,
} from '../../src/domain/assets';
import { ErrorCode } from '../../src/domain/errors';
import type { Services } from '../deps';
import { apiError, badRequest, defineRoute, type Route, rateLimited } from '../http';
import { mediaDir, writeImageCopies } from '../media';
import { MEDIA_ROUTE } from '../seed/media';

/**
 * Uploads (SPEC §7 assets/upload-url, then PUT the file) into the local object store under the media
 * directory, and the image-optimization service (SPEC §7 jobs): sharp, quality 85, palette PNG for
 * png, mozjpeg otherwise, run as an async job that the browser polls each second.
 *
 * No image is decoded before its header (real format, byte size, declared width and height) passed
 * the rules of the upload's asset kind, and every decode is capped at the kind's largest pixel count.
 * Jobs run one at a time, at most two per user and a few overall are waiting, and a job is forgotten
 * ten minutes after its last change.
 */
export const UPLOAD_URL_TTL_MS = 15 * 60_000;
export const JPEG_PNG_QUALITY = 85;
/** Running or waiting image jobs one user may have; the next one answers 429. */
export const IMAGE_JOBS_PER_USER = 2;
/** Running or waiting image jobs of all users together; the next one answers 429. */
export const IMAGE_JOBS_QUEUED_MAX = 32;
/** How long a job is kept after its last change (finished, or started and never finished). */
export const IMAGE_JOB_TTL_MS = 10 * 60_000;
/** Retry-After (seconds) of a refused job: about the time the jobs ahead of it take. */
const IMAGE_JOB_RETRY_AFTER_S = 2;

const ObjectKey = v.pipe(
  v.string('INVALID_VALUE.objectKey'),
  v.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,80}\.(png|jpe?g|gif)$/i, 'INVALID_VALUE.objectKey'),
);
const UploadUrlQuery = v.object({
  mimeType: v.picklist(Object.values(mimeTypes), 'FILE_TYPE.mimeType'),
  objectKey: ObjectKey,
  assetKind: v.picklist(assetKinds, 'INVALID_VALUE.assetKind'),
});

interface UploadGrant {
  userId: string;
  objectKey: string;
  mimeType: string;
  assetKind: AssetKind;
  expires: number;
}

interface ImageJob {
  userId: string;
  status: 'pending' | 'complete' | 'fail';
  url?: string;
  error?: string;
  /** Clock time (ms) of the last change: creation, then completion or failure. */
  changedAt: number;
}

const formatOf = (mimeType: string) =>
  (Object.entries(mimeTypes).find(([, m]) => m === mimeType)?.[0] ?? null) as ImageFormat | null;

/** The format an object key's extension names (served with that content type): .png, .jpg/.jpeg, .gif. */
const extensionFormats: Record<string, ImageFormat> = { png: 'png', jpg: 'jpeg', jpeg: 'jpeg', gif: 'gif' };
const keyFormat = (objectKey: string): ImageFormat | null =>
  extensionFormats[objectKey.slice(objectKey.lastIndexOf('.') + 1).toLowerCase()] ?? null;

/** The raster format the file's signature names, read before any image library sees the bytes. */
function sniff(bytes: Buffer): ImageFormat | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  return null;
}

/**
 * The most pixels an image of the kind may have (its max width × max height, or the largest side
 * squared for a kind without limits); a decode of anything larger fails.
 */
function maxPixels(kind: AssetKind): number {
  const { maxWidth, maxHeight } = assetRules[kind];
  const pixels = maxWidth * maxHeight;
  return Number.isFinite(pixels) && pixels > 0 ? pixels : IMAGE_MAX_SIDE * IMAGE_MAX_SIDE;
}

/** A sharp pipeline that decodes at most the kind's largest pixel count. */
const decoder = (bytes: Buffer, kind: AssetKind) => sharp(bytes, { limitInputPixels: maxPixels(kind) });

/**
 * Checks an image's header against the grant: the real format is a raster format of the grant's
 * mime type, its object key's extension and its asset kind; then the kind's byte size and
 * width/height limits (FILE_TYPE, FILE_SIZE_BIG, IMAGE_MIN_*, IMAGE_MAX_*; 400 on field file).
 * Reads only the header: nothing is decoded here.
 */
async function checkHeader(grant: UploadGrant, bytes: Buffer): Promise<void> {
  const format = formatOf(grant.mimeType);
  if (!format || sniff(bytes) !== format || keyFormat(grant.objectKey) !== format)
    throw badRequest('FILE_TYPE', 'file');
  let meta: { format?: string; width?: number; height?: number };
  try {
    // metadata() parses the header only and allocates no pixels, so it takes no pixel limit: the
    // declared width and height must reach checkImage to answer the rule they break.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest('FILE_TYPE', 'file', 'This file is not an image we can read.');
  }
  if (meta.format !== format) throw badRequest('FILE_TYPE', 'file');
  const problem = checkImage(grant.assetKind, {
    format: meta.format,
    bytes: bytes.length,
    width: meta.width,
    height: meta.height,
  });
  if (problem) throw badRequest(problem, 'file');
}

export function assetRoutes(s: Services): Route[] {
  // One libvips thread per image and no operation cache: uploads are unique, and memory stays bounded.
  sharp.concurrency(1);
  sharp.cache(false);
  const root = join(mediaDir(s.config), 'uploads');
  const sign = (payload: string) =>
    createHmac('sha256', s.config.jwtSecret).update(`upload:${payload}`).digest('base64url');
  const issue = (grant: UploadGrant) => {
    const payload = Buffer.from(JSON.stringify(grant)).toString('base64url');
    return `${payload}.${sign(payload)}`;
  };
  const read = (token: string): UploadGrant => {
    const [payload, signature] = token.split('.');
    const expected = payload ? Buffer.from(sign(payload)) : Buffer.alloc(0);
    const given = Buffer.from(signature ?? '');
    if (!payload || expected.length !== given.length || !timingSafeEqual(expected, given))
      throw apiError(403, ErrorCode.FORBIDDEN, undefined, 'This upload link is not valid.');
    const grant = JSON.parse(Buffer.from(payload, 'base64url').toString()) as UploadGrant;
    if (grant.expires < s.clock().getTime())
      throw apiError(403, ErrorCode.FORBIDDEN, undefined, 'This upload link has expired. Please try again.');
    return grant;
  };
  const publicPath = (g: UploadGrant) => `${MEDIA_ROUTE}/uploads/${g.userId}/${g.objectKey}`;

  /**
   * Checks the bytes against the grant (see checkHeader) and stores them under its object key, then
   * makes the resized WebP copies of a JPEG or PNG (server/media.ts): awaited by an image job, which
   * runs after its answer anyway, and in the background for a direct upload.
   */
  async function store(grant: UploadGrant, bytes: Buffer, copies: 'await' | 'background'): Promise<string> {
    await checkHeader(grant, bytes);
    const path = join(root, grant.userId, grant.objectKey);
    mkdirSync(dirname(path), { recursive: true });
    // Stored files never change (an item's published image stays what was checked and shown).
    try {
      writeFileSync(path, bytes, { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST')
        throw apiError(409, 'FILE_EXISTS', 'file', 'A file with this name was already uploaded.');
      throw err;
    }
    if (formatOf(grant.mimeType) !== 'gif') {
      const made = writeImageCopies(path);
      if (copies === 'await') await made;
      else made.catch((err) => s.log.error(`resizing ${publicPath(grant)} failed`, err));
    }
    return publicPath(grant);
  }

  const jobs = new Map<string, ImageJob>();
  /** Forgets jobs whose last change is IMAGE_JOB_TTL_MS old (finished ones, and any that never finished). */
  const prune = () => {
    const oldest = s.clock().getTime() - IMAGE_JOB_TTL_MS;
    for (const [id, job] of jobs) if (job.changedAt <= oldest) jobs.delete(id);
  };
  /** Jobs run one after another, so at most one image is decoded at a time. */
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (work: () => Promise<void>) => {
    queue = queue.then(work, work);
  };

  return [
    defineRoute({
      method: 'get',
      path: '/assets/upload-url',
      tag: 'assets',
      auth: 'required',
      summary: 'A signed URL (15 minutes) to PUT one image of an asset kind to, and where it will be served',
      query: UploadUrlQuery,
      responses: {
        200: '{ url, publicUrl, expiresAt }',
        400: 'Unsupported type, key (its extension must match the type) or kind',
        401: 'Not logged in',
      },
      handler(c, { query }) {
        if (!assetRules[query.assetKind].formats.includes(formatOf(query.mimeType)!))
          throw badRequest('FILE_TYPE', 'mimeType');
        // The key's extension decides the type the file is served with, so it must name the same format.
        if (keyFormat(query.objectKey) !== formatOf(query.mimeType))
          throw badRequest(
            ErrorCode.INVALID_VALUE,
            'objectKey',
            'The file name’s extension does not match its type.',
          );
        const grant: UploadGrant = {
          userId: c.get('user')!.id,
          objectKey: query.objectKey,
          mimeType: query.mimeType,
          assetKind: query.assetKind,
          expires: s.clock().getTime() + UPLOAD_URL_TTL_MS,
        };
        return c.json({
          url: `/api/assets/uploads/${issue(grant)}`,
          publicUrl: publicPath(grant),
          expiresAt: new Date(grant.expires).toISOString(),
        });
      },
    }),
    defineRoute({
      method: 'put',
      path: '/assets/uploads/{token}',
      tag: 'assets',
      summary: 'Stores the image sent as the request body, checked against its kind’s rules (SPEC §5)',
      params: v.object({ token: v.pipe(v.string(), v.regex(/^[\w-]+\.[\w-]+$/)) }),
      responses: {
        200: '{ url }',
        400: 'FILE_TYPE, FILE_SIZE_BIG, IMAGE_MIN_WIDTH, IMAGE_MIN_HEIGHT, IMAGE_MAX_WIDTH or IMAGE_MAX_HEIGHT',
        403: 'The URL is not valid or has expired',
      },
      async handler(c, { params }) {
        const grant = read(params.token);
        const bytes = Buffer.from(await c.req.arrayBuffer());
        return c.json({ url: await store(grant, bytes, 'background') });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/image-jobs',
      tag: 'assets',
      auth: 'required',
      summary:
        'Starts optimizing an image (form: file, uploadUrl, inputFormat, outputFormat, optimizeAlgo, quality); the result goes to the upload URL',
      responses: {
        201: '{ jobId }',
        400: 'Missing file or upload URL; FILE_TYPE (not the upload URL’s raster format), FILE_SIZE_BIG, IMAGE_MIN_WIDTH, IMAGE_MIN_HEIGHT, IMAGE_MAX_WIDTH or IMAGE_MAX_HEIGHT',
        403: 'Upload URL not the caller’s',
        429: 'RATE_LIMITED: two jobs of the caller (or too many in all) still running (Retry-After)',
      },
      async handler(c) {
        const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
        const file = form.file;
        if (!(file instanceof File)) throw badRequest('FILE_TYPE', 'file', 'Choose an image file.');
        const uploadUrl = typeof form.uploadUrl === 'string' ? form.uploadUrl : '';
        const token = uploadUrl.split('/api/assets/uploads/')[1];
        if (!token) throw badRequest(ErrorCode.INVALID_VALUE, 'uploadUrl');
        const grant = read(token);
        if (grant.userId !== c.get('user')!.id) throw apiError(403, ErrorCode.FORBIDDEN);
        const quality = Number(form.quality ?? JPEG_PNG_QUALITY);
        if (!Number.isInteger(quality) || quality < 1 || quality > 100)
          throw badRequest(ErrorCode.INVALID_VALUE, 'quality');
        const input = Buffer.from(await file.arrayBuffer());
        // The header (format, size, declared dimensions) is checked before anything is decoded.
        await checkHeader(grant, input);
        prune();
        const waiting = [...jobs.values()].filter((job) => job.status === 'pending');
        if (
          waiting.length >= IMAGE_JOBS_QUEUED_MAX ||
          waiting.filter((job) => job.userId === grant.userId).length >= IMAGE_JOBS_PER_USER
        )
          throw rateLimited(
            IMAGE_JOB_RETRY_AFTER_S * 1000,
            'Too many images are being optimized. Please wait a moment.',
          );
        const jobId = randomUUID();
        const job: ImageJob = { userId: grant.userId, status: 'pending', changedAt: s.clock().getTime() };
        jobs.set(jobId, job);
        const finish = (update: Pick<ImageJob, 'status' | 'url' | 'error'>) =>
          Object.assign(job, update, { changedAt: s.clock().getTime() });
        // The job runs after the answer; the browser polls GET /image-jobs/{jobId} every second.
        enqueue(async () => {
          if (jobs.get(jobId) !== job) return; // forgotten while waiting
          try {
            const format = formatOf(grant.mimeType);
            const out =
              format === 'png'
                ? await decoder(input, grant.assetKind)
                    .png({ palette: true, quality, compressionLevel: 9 })
                    .toBuffer()
                : format === 'gif'
                  ? input
                  : await decoder(input, grant.assetKind).jpeg({ quality, mozjpeg: true }).toBuffer();
            finish({ status: 'complete', url: await store(grant, out, 'await') });
          } catch (err) {
            finish({ status: 'fail', error: (err as Error).message });
          }
        });
        return c.json({ jobId }, 201);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/image-jobs/{jobId}',
      tag: 'assets',
      auth: 'required',
      summary: 'An image job: pending, complete (with the optimized image’s URL) or fail',
      params: v.object({ jobId: v.pipe(v.string(), v.uuid()) }),
      responses: {
        200: '{ jobId, status, url? }',
        404: 'No such job of the caller (jobs are forgotten 10 minutes after they finish)',
      },
      handler(c, { params }) {
        prune();
        const job = jobs.get(params.jobId);
        if (!job || job.userId !== c.get('user')!.id) throw apiError(404, ErrorCode.NOT_FOUND);
        return c.json({ jobId: params.jobId, status: job.status, ...(job.url ? { url: job.url } : {}) });
      },
    }),
  ];
}
