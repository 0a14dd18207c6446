import { join } from 'node:path';
import type { Log } from '../clock';
import { localStorage } from './local';
import { type S3Settings, s3Storage } from './s3';
import { startSeaweed } from './seaweed';
import type { MediaStorage } from './storage';

/**
 * Where media is stored (STORAGE): `local`, the directory `<dataDir>/media`; or `s3`, a bucket of S3
 * or of any S3-compatible store. Unset, S3_BUCKET decides: s3 when it is set, else local. In the
 * embedded world, s3 without S3_ENDPOINT starts SeaweedFS (server/storage/seaweed.ts) with the
 * bucket (S3_BUCKET, default `vitrine-media`) in `<dataDir>/seaweed`; with VITRINE_EMBEDDED=off it
 * is S3 itself (AWS) in S3_REGION.
 */
export type StorageConfig =
  | { kind: 'local' }
  | { kind: 's3'; s3: S3Settings }
  | { kind: 's3'; embedded: { bucket: string } };

export interface MediaConfig {
  storage: StorageConfig;
  /**
   * MEDIA_PUBLIC_URL: where browsers fetch media (a CDN or the bucket's public URL, s3 only);
   * `/media/<key>` then redirects to `<mediaPublicUrl>/<key>`. Unset: the app serves /media itself.
   */
  mediaPublicUrl?: string;
}

const DEFAULT_BUCKET = 'vitrine-media';
const DEFAULT_REGION = 'us-east-1';

const httpUrl = (name: string, raw: string) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http or https URL`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash)
    throw new Error(`${name} must be an http or https URL without a query`);
  return raw.replace(/\/+$/, '');
};

export function mediaConfig(env: NodeJS.ProcessEnv, embedded: boolean): MediaConfig {
  const raw = env.STORAGE;
  if (raw && raw !== 'local' && raw !== 's3') throw new Error('STORAGE must be local or s3');
  const kind = raw || (env.S3_BUCKET ? 's3' : 'local');
  const mediaPublicUrl = env.MEDIA_PUBLIC_URL ? httpUrl('MEDIA_PUBLIC_URL', env.MEDIA_PUBLIC_URL) : undefined;
  if (kind === 'local') {
    // A CDN in front of the app caches /media as it is: the redirect would loop.
    if (mediaPublicUrl) throw new Error('MEDIA_PUBLIC_URL is for STORAGE=s3 (a bucket browsers reach)');
    return { storage: { kind: 'local' } };
  }
  const bucket = env.S3_BUCKET || (embedded ? DEFAULT_BUCKET : undefined);
  if (!bucket) throw new Error('S3_BUCKET is required with STORAGE=s3');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new Error('S3_BUCKET must be a bucket name (3–63 lower-case letters, digits, dots and dashes)');
  if (!env.S3_ENDPOINT && embedded) return { storage: { kind: 's3', embedded: { bucket } }, mediaPublicUrl };
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (!accessKeyId !== !secretAccessKey)
    throw new Error(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together (or neither: the AWS SDK’s own credentials)',
    );
  return {
    storage: {
      kind: 's3',
      s3: {
        endpoint: env.S3_ENDPOINT ? httpUrl('S3_ENDPOINT', env.S3_ENDPOINT) : undefined,
        bucket,
        region: env.S3_REGION || DEFAULT_REGION,
        accessKeyId,
        secretAccessKey,
      },
    },
    mediaPublicUrl,
  };
}

/** Media files (seed artwork, uploads and their copies) of the local store live in `<dataDir>/media`. */
export const mediaDir = (config: { dataDir: string }) => join(config.dataDir, 'media');

/** The store the configuration names (not the embedded bucket: openStorage starts its SeaweedFS). */
export function createStorage(config: { dataDir: string; storage: StorageConfig }): MediaStorage {
  const storage = config.storage;
  if (storage.kind === 'local') return localStorage(mediaDir(config));
  if ('s3' in storage) return s3Storage(storage.s3);
  throw new Error('the embedded bucket is opened with openStorage, which starts SeaweedFS');
}

export interface OpenStorage {
  storage: MediaStorage;
  close(): Promise<void>;
}

/**
 * Opens the configured store once it answers (the start stops otherwise, naming it). The embedded
 * bucket: SeaweedFS started on free ports of 127.0.0.1 with its data in `<dataDir>/seaweed`, the
 * bucket made, and browsers of PUBLIC_URL's origin allowed to PUT to it (CORS); stopped by close().
 */
export async function openStorage(
  config: { dataDir: string; storage: StorageConfig; publicUrl: string },
  log: Pick<Log, 'info'>,
): Promise<OpenStorage> {
  const settings = config.storage;
  if (settings.kind === 's3' && 'embedded' in settings) {
    const { bucket } = settings.embedded;
    const seaweed = await startSeaweed({
      dir: join(config.dataDir, 'seaweed'),
      buckets: [bucket],
      allowedOrigins: [new URL(config.publicUrl).origin],
      log: (line) => log.info(line),
    });
    const storage = s3Storage(seaweed.settings(bucket));
    return {
      storage,
      async close() {
        storage.close();
        await seaweed.stop();
      },
    };
  }
  const storage = createStorage(config);
  try {
    await storage.check();
  } catch (err) {
    storage.close();
    const where = settings.kind === 'local' ? mediaDir(config) : `bucket ${settings.s3.bucket}`;
    throw new Error(`The media store (${where}) cannot be used: ${(err as Error).message || err}`);
  }
  return { storage, close: async () => storage.close() };
}
