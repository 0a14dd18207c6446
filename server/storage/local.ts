import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { assertMediaKey, type MediaStorage, type StoredObject } from './storage';

/**
 * The media store as a directory (the embedded default; several servers share it on a volume they
 * all mount). An object is written under a hidden temporary name beside its place and then moved
 * there, so a reader, or another server, sees a whole file or none.
 */
export function localStorage(dir: string): MediaStorage & { dir: string } {
  const pathOf = (key: string) => {
    assertMediaKey(key);
    return join(dir, key);
  };
  /** Writes the bytes under a hidden name beside `path`, then hands it to `place`; never leaves it behind. */
  async function viaTemp(path: string, bytes: Uint8Array, place: (temp: string) => Promise<void>) {
    await mkdir(dirname(path), { recursive: true });
    const temp = join(dirname(path), `.${randomBytes(6).toString('hex')}-${basename(path)}`);
    try {
      await writeFile(temp, bytes);
      await place(temp);
    } finally {
      await rm(temp, { force: true });
    }
  }
  async function* walk(folder: string, prefix: string): AsyncGenerator<StoredObject> {
    const entries = await readdir(folder, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return [];
      throw err;
    });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const key = `${prefix}${entry.name}`;
      if (entry.isDirectory()) yield* walk(join(folder, entry.name), `${key}/`);
      else if (entry.isFile()) {
        const info = await stat(join(folder, entry.name)).catch(() => null);
        if (info) yield { key, size: info.size, modified: info.mtime };
      }
    }
  }
  return {
    kind: 'local',
    dir,
    async create(key, bytes) {
      const path = pathOf(key);
      let created = true;
      // A hard link fails when the name is taken: of two writers the first one wins.
      await viaTemp(path, bytes, (temp) =>
        link(temp, path).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err;
          created = false;
        }),
      );
      return created;
    },
    async put(key, bytes) {
      const path = pathOf(key);
      await viaTemp(path, bytes, (temp) => rename(temp, path));
    },
    async read(key) {
      return readFile(pathOf(key)).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT' || err.code === 'EISDIR' || err.code === 'ENOTDIR') return null;
        throw err;
      });
    },
    async exists(key) {
      return (await stat(pathOf(key)).catch(() => null))?.isFile() ?? false;
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    list(prefix) {
      // Walks the folder the prefix names (its last part may be the start of a name).
      const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
      return (async function* () {
        for await (const object of walk(join(dir, folder), folder)) {
          if (object.key.startsWith(prefix)) yield object;
        }
      })();
    },
    async serve(c, key) {
      return (await serveStatic({ path: pathOf(key) })(c, async () => {})) ?? null;
    },
    async check() {
      await mkdir(dir, { recursive: true });
      await access(dir, constants.R_OK | constants.W_OK);
    },
    close() {},
  };
}
