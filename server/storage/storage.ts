import type { Context } from 'hono';
import { getMimeType } from 'hono/utils/mime';

/**
 * Where media files live: uploads, their WebP copies and the seeded artwork, each an object under a
 * key such as `uploads/<userId>/<name>.png` (served at `/media/<key>`). Two implementations: a local
 * directory (server/storage/local.ts, the embedded default) and an S3-compatible bucket
 * (server/storage/s3.ts). Stored objects never change, except copies rewritten with the same bytes.
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /**
   * Stores the object unless one is stored under the key already: true when this call stored it.
   * Of two writers at once one wins; a reader sees the whole object or none.
   */
  create(key: string, bytes: Uint8Array): Promise<boolean>;
  /** Stores the object, replacing one under the key (whole or not at all). */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The object's bytes, or null when there is none. */
  read(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; removing a missing one is no error. */
  remove(key: string): Promise<void>;
  /** Every object whose key starts with the prefix (in no particular order). */
  list(prefix: string): AsyncIterable<StoredObject>;
  /**
   * The answer to a GET or HEAD of the object (its Range header honoured; a bucket also answers
   * If-None-Match and If-Modified-Since), or null when there is none.
   */
  serve(c: Context, key: string): Promise<Response | null>;
  /**
   * A URL the browser PUTs the object to straight into the store, valid for `expiresInSeconds`,
   * that takes exactly `bytes` bytes of the key's content type (both signed into it); absent when
   * the store cannot be reached by browsers (the local directory: uploads go through the API).
   */
  presignPut?(key: string, bytes: number, expiresInSeconds: number): Promise<string>;
  /** Resolves when the store answers and may be written; rejects with the reason otherwise. Cheap. */
  check(): Promise<void>;
  /** Lets go of connections. */
  close(): void;
}

export interface StoredObject {
  key: string;
  size: number;
  modified: Date;
}

/**
 * A key: folders and a name of letters, digits, `_`, `-` and `.`, none of them starting with `.`
 * (so no `..`, and no hidden temporary file of the local store).
 */
const KEY = /^(?:[\w-][\w.-]*\/)*[\w-][\w.-]*$/;
export const isMediaKey = (key: string) => key.length <= 512 && KEY.test(key);

export function assertMediaKey(key: string): void {
  if (!isMediaKey(key)) throw new Error(`not a media key: ${JSON.stringify(key)}`);
}

/**
 * Uploads wait under this prefix until they are checked: a browser's upload straight to the store
 * (then confirmed) and an image job's original (until the job is done). Never served; an object
 * left there is removed after STAGED_TTL_MS.
 */
export const STAGED_PREFIX = 'incoming/';
export const STAGED_TTL_MS = 60 * 60_000;

/** The content type an object is stored and served with, by its key's extension. */
export const mediaType = (key: string) => getMimeType(key) ?? 'application/octet-stream';

/** Removes the staged objects older than STAGED_TTL_MS (a worker's periodic task). */
export async function forgetStagedUploads(storage: MediaStorage, now: Date): Promise<void> {
  const before = now.getTime() - STAGED_TTL_MS;
  for await (const object of storage.list(STAGED_PREFIX)) {
    if (object.modified.getTime() < before) await storage.remove(object.key);
  }
}
