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
  type ImageFormat,
  mimeTypes,
} from '../../src/domain/assets';
import { ErrorCode } from '../../src/domain/errors';
import type { Services } from '../deps';
import { apiError, badRequest, defineRoute, type Route } from '../http';
import { mediaDir } from '../media';
import { MEDIA_ROUTE } from '../seed/media';

/**
 * Uploads (SPEC §7 assets/upload-url, then PUT the file) into the local object store under the media
 * directory, and the image-optimization service (SPEC §7 jobs): sharp, quality 85, palette PNG for
 * png, mozjpeg otherwise, run as an async job that the browser polls each second.
 */
export const UPLOAD_URL_TTL_MS = 15 * 60_000;
export const JPEG_PNG_QUALITY = 85;

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

const formatOf = (mimeType: string) =>
  (Object.entries(mimeTypes).find(([, m]) => m === mimeType)?.[0] ?? null) as ImageFormat | null;

export function assetRoutes(s: Services): Route[] {
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

  /** Checks the bytes against the grant's kind (real format, size, dimensions) and stores them. */
  async function store(grant: UploadGrant, bytes: Buffer): Promise<string> {
    let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
    try {
      meta = await sharp(bytes).metadata();
    } catch {
      throw badRequest('FILE_TYPE', 'file', 'This file is not an image we can read.');
    }
    const format = meta.format as string | undefined;
    if (format !== formatOf(grant.mimeType)) throw badRequest('FILE_TYPE', 'file');
    const problem = checkImage(grant.assetKind, {
      format,
      bytes: bytes.length,
      width: meta.width,
      height: meta.height,
    });
    if (problem) throw badRequest(problem, 'file');
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
    return publicPath(grant);
  }

  const jobs = new Map<
    string,
    { userId: string; status: 'pending' | 'complete' | 'fail'; url?: string; error?: string }
  >();

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
        400: 'Unsupported type, key or kind',
        401: 'Not logged in',
      },
      handler(c, { query }) {
        if (!assetRules[query.assetKind].formats.includes(formatOf(query.mimeType)!))
          throw badRequest('FILE_TYPE', 'mimeType');
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
        return c.json({ url: await store(grant, bytes) });
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
        400: 'Missing file or upload URL, unsupported format',
        403: 'Upload URL not the caller’s',
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
        const jobId = randomUUID();
        jobs.set(jobId, { userId: grant.userId, status: 'pending' });
        // The job runs after the answer; the browser polls GET /image-jobs/{jobId} every second.
        setImmediate(async () => {
          try {
            const image = sharp(input);
            const out =
              formatOf(grant.mimeType) === 'png'
                ? await image.png({ palette: true, quality, compressionLevel: 9 }).toBuffer()
                : formatOf(grant.mimeType) === 'gif'
                  ? input
                  : await image.jpeg({ quality, mozjpeg: true }).toBuffer();
            jobs.set(jobId, { userId: grant.userId, status: 'complete', url: await store(grant, out) });
          } catch (err) {
            jobs.set(jobId, { userId: grant.userId, status: 'fail', error: (err as Error).message });
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
      responses: { 200: '{ jobId, status, url? }', 404: 'No such job of the caller' },
      handler(c, { params }) {
        const job = jobs.get(params.jobId);
        if (!job || job.userId !== c.get('user')!.id) throw apiError(404, ErrorCode.NOT_FOUND);
        return c.json({ jobId: params.jobId, status: job.status, ...(job.url ? { url: job.url } : {}) });
      },
    }),
  ];
}
