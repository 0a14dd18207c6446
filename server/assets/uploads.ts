import sharp from 'sharp';
import { type AssetKind, imageProblem } from '#domain/assets';
import { ErrorCode } from '#domain/errors';
import { badRequest } from '../http';
import { isMediaKey, type MediaStorage } from '../storage/storage';

/**
 * Whether `url` names a file that user `userId` uploaded and that passes the rules of `kind`
 * (format, size, dimensions): null when it does, 'not_own' when it is not one of the user's stored
 * uploads, else the image rule's error code with the values its text names.
 */
export async function ownUploadProblem(
  storage: MediaStorage,
  userId: string,
  url: string,
  kind: AssetKind,
): Promise<'not_own' | ReturnType<typeof imageProblem>> {
  const prefix = `/media/uploads/${userId}/`;
  const name = url.slice(prefix.length);
  if (!url.startsWith(prefix) || !isMediaKey(name) || name.includes('/')) return 'not_own';
  const bytes = await storage.read(`uploads/${userId}/${name}`);
  if (!bytes) return 'not_own';
  const meta = await sharp(bytes)
    .metadata()
    .catch(() => null);
  return imageProblem(kind, {
    format: meta?.format,
    bytes: bytes.length,
    width: meta?.width,
    height: meta?.height,
  });
}

/**
 * The one ownership check of an image URL a body names: it must be one of the caller's stored uploads
 * (else 400 `notOwnCode`, INVALID_VALUE unless the field has a code of its own) and pass the rules of
 * `kind` (else 400 with the image rule's code), both naming `field`.
 */
export async function assertOwnUpload(
  storage: MediaStorage,
  userId: string,
  upload: { field: string; url: string; kind: AssetKind; notOwnCode?: string },
): Promise<void> {
  const problem = await ownUploadProblem(storage, userId, upload.url, upload.kind);
  if (problem === 'not_own') throw badRequest(upload.notOwnCode ?? ErrorCode.INVALID_VALUE, upload.field);
  if (problem) throw badRequest(problem.code, upload.field, undefined, problem.params);
}
