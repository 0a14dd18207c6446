import { createHmac, timingSafeEqual } from 'node:crypto';
import sharp from 'sharp';
import * as v from 'valibot';
import { assetKinds, assetRules, formatBytes, mimeTypes } from '#domain/assets';
import { ErrorCode } from '#domain/errors';
import { UrlAnswer } from '#domain/responses/common';
import { ImageJobCreated, ImageJobJson, UploadUrlAnswer } from '#domain/responses/system';
import type { Services } from '../deps';
import { apiError, badRequest, defineRoute, type Route } from '../http';
import { findImageJob, queueImageJob } from '../images/jobs';
import {
  checkHeader,
  createImageStore,
  formatOf,
  JPEG_PNG_QUALITY,
  keyFormat,
  publicPath,
  stagedKey,
  type UploadGrant,
} from '../images/store';

/**
 * Uploads: GET assets/upload-url for a signed URL, then PUT the file to it. With the local store
 * that URL is the API's (PUT assets/uploads/{token} checks and stores the file); with S3 it is a
 * presigned PUT straight to the bucket (the file's type and exact size signed in), after which POST
 * assets/uploads/{token} checks the file read back from the store and stores it (server/images/store.ts).
 * And the image-optimization service (image-jobs): a durable job that any server's worker runs
 * (server/images/jobs.ts), polled by the browser each second.
 */
export const UPLOAD_URL_TTL_MS = 15 * 60_000;

const ObjectKey = v.pipe(
  v.string('INVALID_VALUE.objectKey'),
  // Written out without the i flag, which a JSON Schema pattern cannot carry.
  v.regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{0,80}\.([pP][nN][gG]|[jJ][pP][eE]?[gG]|[gG][iI][fF])$/,
    'INVALID_VALUE.objectKey',
  ),
);
const UploadUrlQuery = v.object({
  mimeType: v.picklist(Object.values(mimeTypes), 'FILE_TYPE.mimeType'),
  objectKey: ObjectKey,
  assetKind: v.picklist(assetKinds, 'INVALID_VALUE.assetKind'),
  /** The file's size in bytes: signed into a presigned PUT (required then), else unused. */
  size: v.optional(
    v.pipe(
      v.string('INVALID_VALUE.size'),
      v.regex(/^[1-9]\d{0,9}$/, 'INVALID_VALUE.size'),
      v.transform(Number),
    ),
  ),
});
const TOKEN_PATH = '/api/assets/uploads/';

/** An upload link's signature: an HMAC of its payload under the server's secret. */
const signUpload = (s: Services, payload: string) =>
  createHmac('sha256', s.config.jwtSecret).update(`upload:${payload}`).digest('base64url');

/** An upload link's token: the grant as base64url JSON, a dot, and its signature. */
function issueUploadToken(s: Services, grant: UploadGrant) {
  const payload = Buffer.from(JSON.stringify(grant)).toString('base64url');
  return `${payload}.${signUpload(s, payload)}`;
}

/** The grant of an upload token: 403 FORBIDDEN for a forged or expired one. */
function readUploadToken(s: Services, token: string): UploadGrant {
  const [payload, signature] = token.split('.');
  const expected = payload ? Buffer.from(signUpload(s, payload)) : Buffer.alloc(0);
  const given = Buffer.from(signature ?? '');
  if (!payload || expected.length !== given.length || !timingSafeEqual(expected, given))
    throw apiError(403, ErrorCode.FORBIDDEN, undefined, 'This upload link is not valid.');
  const grant = JSON.parse(Buffer.from(payload, 'base64url').toString()) as UploadGrant;
  if (grant.expires < s.clock().getTime())
    throw apiError(403, ErrorCode.FORBIDDEN, undefined, 'This upload link has expired. Please try again.');
  return grant;
}

type ImageStore = ReturnType<typeof createImageStore>;

export function assetRoutes(s: Services): Route[] {
  // One libvips thread per image and no operation cache: uploads are unique, and memory stays bounded.
  sharp.concurrency(1);
  sharp.cache(false);
  const images = createImageStore(s.storage, s.log);
  return [...uploadUrlRoutes(s), ...uploadRoutes(s, images), ...imageJobRoutes(s)];
}

/** Asking for an upload link. */
function uploadUrlRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/assets/upload-url',
      tag: 'assets',
      auth: 'required',
      summary:
        'A signed URL (15 minutes) to PUT one image of an asset kind to, and where it will be served; with S3 a presigned PUT to the bucket, confirmed with POST confirmUrl',
      query: UploadUrlQuery,
      response: UploadUrlAnswer,
      responses: {
        200: '{ url, publicUrl, expiresAt, headers?, confirmUrl? }',
        400: 'Unsupported type, key (its extension must match the type), kind or size (FILE_SIZE_BIG over the kind’s limit; with S3 the size is required)',
        401: 'Not logged in',
      },
      async handler(c, { query }) {
        if (!assetRules[query.assetKind].formats.includes(formatOf(query.mimeType)!))
          throw badRequest('FILE_TYPE', 'mimeType');
        // The key's extension decides the type the file is served with, so it must name the same format.
        if (keyFormat(query.objectKey) !== formatOf(query.mimeType))
          throw badRequest(
            ErrorCode.INVALID_VALUE,
            'objectKey',
            'The file name’s extension does not match its type.',
          );
        const { maxBytes } = assetRules[query.assetKind];
        if (query.size !== undefined && query.size > maxBytes)
          throw badRequest(ErrorCode.FILE_SIZE_BIG, 'size', undefined, {
            size: formatBytes(query.size, true),
            maxSize: formatBytes(maxBytes),
          });
        const grant: UploadGrant = {
          userId: c.get('user')!.id,
          objectKey: query.objectKey,
          mimeType: query.mimeType,
          assetKind: query.assetKind,
          expires: s.clock().getTime() + UPLOAD_URL_TTL_MS,
        };
        const apiUrl = `${TOKEN_PATH}${issueUploadToken(s, grant)}`;
        const answer = {
          url: apiUrl,
          publicUrl: publicPath(grant),
          expiresAt: new Date(grant.expires).toISOString(),
        };
        if (!s.storage.presignPut) return c.json(answer);
        // Straight to the store: the file waits at its staged key until POST confirmUrl checks it.
        if (query.size === undefined) throw badRequest(ErrorCode.INVALID_VALUE, 'size');
        const url = await s.storage.presignPut(stagedKey(grant), query.size, UPLOAD_URL_TTL_MS / 1000);
        return c.json({ ...answer, url, headers: { 'Content-Type': query.mimeType }, confirmUrl: apiUrl });
      },
    }),
  ];
}

/** Uploading a file through its link, and confirming an upload. */
function uploadRoutes(s: Services, images: ImageStore): Route[] {
  return [
    defineRoute({
      method: 'put',
      path: '/assets/uploads/{token}',
      tag: 'assets',
      summary:
        'Stores the image sent as the request body, checked against its kind’s rules (format, size, dimensions)',
      params: v.object({ token: v.pipe(v.string(), v.regex(/^[\w-]+\.[\w-]+$/)) }),
      response: UrlAnswer,
      responses: {
        200: '{ url }',
        400: 'FILE_TYPE, FILE_SIZE_BIG, IMAGE_MIN_WIDTH, IMAGE_MIN_HEIGHT, IMAGE_MAX_WIDTH or IMAGE_MAX_HEIGHT',
        403: 'The URL is not valid or has expired',
      },
      async handler(c, { params }) {
        const grant = readUploadToken(s, params.token);
        const bytes = Buffer.from(await c.req.arrayBuffer());
        return c.json({ url: await images.store(grant, bytes, 'background') });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/assets/uploads/{token}',
      tag: 'assets',
      summary:
        'Confirms an image PUT straight to the store (S3): checks it as the PUT here does, and stores it at its public URL',
      params: v.object({ token: v.pipe(v.string(), v.regex(/^[\w-]+\.[\w-]+$/)) }),
      response: UrlAnswer,
      responses: {
        200: '{ url }',
        400: 'FILE_TYPE, FILE_SIZE_BIG, IMAGE_MIN_WIDTH, IMAGE_MIN_HEIGHT, IMAGE_MAX_WIDTH or IMAGE_MAX_HEIGHT (the uploaded file is discarded)',
        403: 'The URL is not valid or has expired',
        404: 'Nothing was uploaded with this URL',
        409: 'FILE_EXISTS',
      },
      async handler(c, { params }) {
        return c.json({ url: await images.confirm(readUploadToken(s, params.token)) });
      },
    }),
  ];
}

/** Image jobs: queueing one and reading its state. */
function imageJobRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/image-jobs',
      tag: 'assets',
      auth: 'required',
      summary:
        'Starts optimizing an image (form: file, uploadUrl, inputFormat, outputFormat, optimizeAlgo, quality; with S3 the file may instead be PUT to the grant’s url first and left out, uploadUrl then being its confirmUrl); the result goes to the upload URL',
      response: ImageJobCreated,
      responses: {
        201: '{ jobId }',
        400: 'Missing file or upload URL; FILE_TYPE (not the upload URL’s raster format), FILE_SIZE_BIG, IMAGE_MIN_WIDTH, IMAGE_MIN_HEIGHT, IMAGE_MAX_WIDTH or IMAGE_MAX_HEIGHT',
        403: 'Upload URL not the caller’s',
        429: 'RATE_LIMITED: two jobs of the caller (or 32 in all) still waiting or running (Retry-After)',
      },
      async handler(c) {
        const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
        const file = form.file;
        const uploadUrl = typeof form.uploadUrl === 'string' ? form.uploadUrl : '';
        const token = uploadUrl.split(TOKEN_PATH)[1];
        if (!token) {
          if (!(file instanceof File)) throw badRequest('FILE_TYPE', 'file', 'Choose an image file.');
          throw badRequest(ErrorCode.INVALID_VALUE, 'uploadUrl');
        }
        const grant = readUploadToken(s, token);
        if (grant.userId !== c.get('user')!.id) throw apiError(403, ErrorCode.FORBIDDEN);
        const quality = Number(form.quality ?? JPEG_PNG_QUALITY);
        if (!Number.isInteger(quality) || quality < 1 || quality > 100)
          throw badRequest(ErrorCode.INVALID_VALUE, 'quality');
        // The original waits in the store for the job: sent with the form, or PUT there already.
        const staged = stagedKey(grant);
        const input =
          file instanceof File ? Buffer.from(await file.arrayBuffer()) : await s.storage.read(staged);
        if (!input) throw badRequest('FILE_TYPE', 'file', 'Choose an image file.');
        try {
          // The header (format, size, declared dimensions) is checked before anything is decoded.
          await checkHeader(grant, input);
          if (file instanceof File) await s.storage.put(staged, input);
          const jobId = await queueImageJob(s.db, s.clock(), { grant, quality });
          // A worker of this server looks at once; the browser polls GET /image-jobs/{jobId}.
          s.jobs?.nudge();
          return c.json({ jobId }, 201);
        } catch (err) {
          await s.storage.remove(staged);
          throw err;
        }
      },
    }),
    defineRoute({
      method: 'get',
      path: '/image-jobs/{jobId}',
      tag: 'assets',
      auth: 'required',
      summary: 'An image job: pending, complete (with the optimized image’s URL) or fail',
      params: v.object({ jobId: v.pipe(v.string(), v.uuid()) }),
      response: ImageJobJson,
      responses: {
        200: '{ jobId, status, url? }',
        404: 'No such job of the caller (jobs are forgotten 10 minutes after they finish)',
      },
      async handler(c, { params }) {
        const job = await findImageJob(s.db, s.clock(), params.jobId, c.get('user')!.id);
        if (!job) throw apiError(404, ErrorCode.NOT_FOUND);
        return c.json({ jobId: job.id, status: job.status, ...(job.url ? { url: job.url } : {}) });
      },
    }),
  ];
}
