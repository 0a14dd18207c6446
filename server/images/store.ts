import sharp from 'sharp';
import {
  type AssetKind,
  assetRules,
  IMAGE_MAX_SIDE,
  type ImageFormat,
  imageProblem,
  mimeTypes,
} from '#domain/assets';
import { ErrorCode } from '#domain/errors';
import type { Log } from '../clock';
import { apiError, badRequest } from '../http';
import { writeImageCopies } from '../media';
import { MEDIA_ROUTE } from '../seed/media';
import { type MediaStorage, STAGED_PREFIX } from '../storage/storage';

/**
 * Uploads in the media store (server/storage) and the rules every stored image passes: its header
 * is checked against the upload's grant before anything is decoded, and every decode is capped at
 * the kind's largest pixel count.
 */

/** What a signed upload URL allows: one object key of one user, of a mime type and asset kind. */
export interface UploadGrant {
  userId: string;
  objectKey: string;
  mimeType: string;
  assetKind: AssetKind;
  expires: number;
}

export const JPEG_PNG_QUALITY = 85;

export const formatOf = (mimeType: string) =>
  (Object.entries(mimeTypes).find(([, m]) => m === mimeType)?.[0] ?? null) as ImageFormat | null;

/** The format an object key's extension names (served with that content type): .png, .jpg/.jpeg, .gif. */
export const extensionFormats: Record<string, ImageFormat> = {
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  gif: 'gif',
};
export const keyFormat = (objectKey: string): ImageFormat | null =>
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
export const decoder = (bytes: Buffer, kind: AssetKind) =>
  sharp(bytes, { limitInputPixels: maxPixels(kind) });

/**
 * Checks an image's header against the grant: the real format is a raster format of the grant's
 * mime type, its object key's extension and its asset kind; then the kind's byte size and
 * width/height limits (FILE_TYPE, FILE_SIZE_BIG, IMAGE_MIN_*, IMAGE_MAX_*; 400 on field file, its params naming the
 * kind's limits and the image's size).
 * Reads only the header: nothing is decoded here.
 */
export async function checkHeader(grant: UploadGrant, bytes: Buffer): Promise<void> {
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
  const problem = imageProblem(grant.assetKind, {
    format: meta.format,
    bytes: bytes.length,
    width: meta.width,
    height: meta.height,
  });
  if (problem) throw badRequest(problem.code, 'file', undefined, problem.params);
}

type GrantKey = Pick<UploadGrant, 'userId' | 'objectKey'>;
/** Where a grant's file is stored once checked. */
export const uploadKey = (g: GrantKey) => `uploads/${g.userId}/${g.objectKey}`;
/** Where a grant's file waits for its checks (a browser's upload straight to the store, a job's original). */
export const stagedKey = (g: GrantKey) => `${STAGED_PREFIX}${g.userId}/${g.objectKey}`;
/** Where a grant's file is served. */
export const publicPath = (g: GrantKey) => `${MEDIA_ROUTE}/${uploadKey(g)}`;

export function createImageStore(storage: MediaStorage, log: Pick<Log, 'error'>) {
  return {
    /**
     * Checks the bytes against the grant (see checkHeader) and stores them under its object key,
     * then makes the resized WebP copies of a JPEG or PNG (server/media.ts): awaited by an image job,
     * which runs after its answer anyway, and in the background for a direct upload. Stored files
     * never change (an item's published image stays what was checked and shown): a second file under
     * the same key is FILE_EXISTS, unless `sameAgain` says the one there is this very result (a job
     * run again after a crash).
     */
    async store(
      grant: UploadGrant,
      bytes: Buffer,
      copies: 'await' | 'background',
      sameAgain = false,
    ): Promise<string> {
      await checkHeader(grant, bytes);
      const created = await storage.create(uploadKey(grant), bytes);
      if (!created && !sameAgain)
        throw apiError(409, 'FILE_EXISTS', 'file', 'A file with this name was already uploaded.');
      if (formatOf(grant.mimeType) !== 'gif') {
        const made = writeImageCopies(storage, uploadKey(grant), created ? bytes : undefined);
        if (copies === 'await') await made;
        else made.catch((err) => log.error(`resizing ${publicPath(grant)} failed`, err));
      }
      return publicPath(grant);
    },
    /**
     * Stores the file the browser sent straight to the store for the grant (waiting at stagedKey) as
     * store() does, and removes it from there whatever the checks say. A grant whose file is stored
     * already answers its URL again (a confirmation sent twice); with no file: 404.
     */
    async confirm(grant: UploadGrant): Promise<string> {
      const staged = await storage.read(stagedKey(grant));
      if (!staged) {
        if (await storage.exists(uploadKey(grant))) return publicPath(grant);
        throw apiError(404, ErrorCode.NOT_FOUND, 'file', 'Nothing was uploaded to this link.');
      }
      try {
        return await this.store(grant, staged, 'background');
      } finally {
        await storage.remove(stagedKey(grant));
      }
    },
  };
}
