import { randomBytes } from 'node:crypto';
import { renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Writes the file at `path` whole or not at all: `write` makes it under a hidden name beside it
 * (with the same extension, for tools that take the format from the name), which is then renamed
 * into place; a failed write leaves nothing behind. A reader, or another process writing the same
 * file at once, sees a whole file or none.
 */
export async function writeWhole(path: string, write: (temp: string) => unknown): Promise<void> {
  const temp = join(dirname(path), `.${randomBytes(6).toString('hex')}-${basename(path)}`);
  try {
    await write(temp);
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Where the installation keeps what it makes once and every data directory reuses:
 * `node_modules/.cache/vitrine/<name>`.
 */
export const installationCache = (name: string) =>
  fileURLToPath(new URL(`../node_modules/.cache/vitrine/${name}`, import.meta.url));
