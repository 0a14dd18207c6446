import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { IMMUTABLE } from '../http';
import { assertMediaKey, type MediaStorage, mediaType, STAGED_PREFIX } from './storage';

/** Where the bucket is: S3 itself (no endpoint) or any S3-compatible server. */
export interface S3Settings {
  /** The S3 API's base URL (path-style requests); unset: AWS S3 of the region. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Unset: the AWS SDK's default credentials (environment, instance or task role). */
  accessKeyId?: string;
  secretAccessKey?: string;
}

const status = (err: unknown) =>
  err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;

/**
 * Serves an object as the app serves media: its content type, Range (206), If-None-Match and
 * If-Modified-Since (304), an unsatisfiable range 416; null when there is no such object.
 */
async function serveObject(
  client: S3Client,
  Bucket: string,
  c: Parameters<MediaStorage['serve']>[0],
  key: string,
): Promise<Response | null> {
  assertMediaKey(key);
  const header = (name: string) => c.req.header(name) || undefined;
  const modifiedSince = header('if-modified-since');
  const input = {
    Bucket,
    Key: key,
    Range: header('range'),
    IfNoneMatch: header('if-none-match'),
    IfModifiedSince: modifiedSince ? new Date(modifiedSince) : undefined,
  };
  try {
    const answer =
      c.req.method === 'HEAD'
        ? await client.send(new HeadObjectCommand(input))
        : await client.send(new GetObjectCommand(input));
    const headers = new Headers({ 'Content-Type': mediaType(key), 'Accept-Ranges': 'bytes' });
    if (answer.ContentLength !== undefined) headers.set('Content-Length', String(answer.ContentLength));
    if (answer.ContentRange) headers.set('Content-Range', answer.ContentRange);
    if (answer.ETag) headers.set('ETag', answer.ETag);
    if (answer.LastModified) headers.set('Last-Modified', answer.LastModified.toUTCString());
    const body = 'Body' in answer && answer.Body ? answer.Body.transformToWebStream() : null;
    return new Response(body, { status: answer.ContentRange ? 206 : 200, headers });
  } catch (err) {
    const code = status(err);
    if (code === 404) return null;
    if (code === 304) return new Response(null, { status: 304 });
    if (code === 416) return new Response(null, { status: 416 });
    throw err;
  }
}

/**
 * The media store as an S3 bucket. Objects carry their content type (by extension) and, once
 * checked, the Cache-Control of immutable files, so a CDN or a public bucket serves them as the app
 * does. Only the checksums S3 requires are computed: a presigned PUT then asks the browser for
 * nothing beyond the body and its content type.
 */
export function s3Storage(settings: S3Settings): MediaStorage & { client: S3Client } {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.endpoint !== undefined,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const object = (key: string, bytes?: Uint8Array) => {
    assertMediaKey(key);
    return {
      Bucket,
      Key: key,
      Body: bytes,
      ContentType: mediaType(key),
      CacheControl: key.startsWith(STAGED_PREFIX) ? 'no-store' : IMMUTABLE,
    };
  };
  return {
    kind: 's3',
    client,
    async create(key, bytes) {
      try {
        // Written only when no object has the key (a conditional write, If-None-Match: *).
        await client.send(new PutObjectCommand({ ...object(key, bytes), IfNoneMatch: '*' }));
        return true;
      } catch (err) {
        // 412: the key is taken; 409: another write of it is under way.
        if (status(err) === 412 || status(err) === 409) return false;
        throw err;
      }
    },
    async put(key, bytes) {
      await client.send(new PutObjectCommand(object(key, bytes)));
    },
    async read(key) {
      assertMediaKey(key);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return Buffer.from(await answer.Body!.transformToByteArray());
      } catch (err) {
        if (status(err) === 404) return null;
        throw err;
      }
    },
    async exists(key) {
      assertMediaKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (err) {
        if (status(err) === 404) return false;
        throw err;
      }
    },
    async remove(key) {
      assertMediaKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async *list(prefix) {
      for await (const page of paginateListObjectsV2({ client }, { Bucket, Prefix: prefix })) {
        for (const item of page.Contents ?? []) {
          if (item.Key)
            yield { key: item.Key, size: item.Size ?? 0, modified: item.LastModified ?? new Date(0) };
        }
      }
    },
    serve: (c, key) => serveObject(client, Bucket, c, key),
    async presignPut(key, bytes, expiresInSeconds) {
      const put = new PutObjectCommand({
        Bucket,
        Key: key,
        ContentType: mediaType(key),
        ContentLength: bytes,
      });
      assertMediaKey(key);
      return getSignedUrl(client, put, {
        expiresIn: expiresInSeconds,
        // The browser's PUT must carry exactly this type and length, or the store refuses it.
        signableHeaders: new Set(['content-type', 'content-length']),
      });
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    close() {
      client.destroy();
    },
  };
}
