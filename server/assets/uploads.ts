import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { type AssetKind, checkImage } from '#domain/assets';
import type { Config } from '../config';
import { mediaDir } from '../media';

/**
 * Whether `url` names a file that user `userId` uploaded and that passes the rules of `kind`
 * (format, size, dimensions): null when it does, else the error code to answer ('not_own' when it
 * is not one of the user's stored uploads).
 */
export async function ownUploadProblem(
  config: Pick<Config, 'dataDir'>,
  userId: string,
  url: string,
  kind: AssetKind,
): Promise<string | null> {
  const prefix = `/media/uploads/${userId}/`;
  const name = url.slice(prefix.length);
  if (!url.startsWith(prefix) || name.startsWith('.') || name.includes('/')) return 'not_own';
  const path = join(mediaDir(config), 'uploads', userId, name);
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return 'not_own';
  const bytes = readFileSync(path);
  const meta = await sharp(bytes)
    .metadata()
    .catch(() => null);
  return checkImage(kind, {
    format: meta?.format,
    bytes: bytes.length,
    width: meta?.width,
    height: meta?.height,
  });
}
