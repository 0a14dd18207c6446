import type { Log } from '../clock';
import type { MediaStorage } from '../storage/storage';
import { cardVersion, type ShareCard } from './card';

/**
 * Share images kept in the media store, under `og/{page}/{version}.png` (OG_PREFIX): made once per
 * version of what they show and read back after, by every server that shares the store. The media
 * store, not the database: the PNGs (tens of kB each) are files like the artwork they show, stored and
 * backed up with it, and the database stays small; the version is computed from the rows on each
 * request anyway, so nothing else needs storing.
 *
 * Many requests at once for one missing image wait for one making of it (single flight), and at most
 * MAKING_AT_ONCE images are made at a time by this server (others wait their turn), so that a crawler
 * asking for many new images cannot take every core. Once a new version is stored, the page's older
 * versions are removed.
 */
export const OG_PREFIX = 'og/';
export const MAKING_AT_ONCE = 2;

export interface ShareImages {
  /** The PNG of `card`, the share image of `page` (a folder name: `nft/{id}`, `s/{storefront id}`). */
  png(page: string, card: ShareCard): Promise<Buffer>;
}

/** At most `n` calls of the returned function run at once; later calls wait, first come first served. */
export function limiter(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

export function createShareImages(
  storage: MediaStorage,
  make: (card: ShareCard) => Promise<Buffer>,
  log: Pick<Log, 'error'>,
  atOnce = MAKING_AT_ONCE,
): ShareImages {
  const limit = limiter(atOnce);
  const making = new Map<string, Promise<Buffer>>();

  /** Removes the page's images of other versions (best effort: a failure leaves files, nothing else). */
  async function removeOlder(folder: string, key: string) {
    try {
      for await (const object of storage.list(folder)) {
        if (object.key !== key) await storage.remove(object.key);
      }
    } catch (err) {
      log.error(`removing old share images of ${folder} failed`, err);
    }
  }

  const makeOnce = (folder: string, key: string, card: ShareCard) =>
    limit(async () => {
      // Another server (or this one, just before) may have stored it while this waited its turn.
      const stored = await storage.read(key);
      if (stored) return stored;
      const png = await make(card);
      await storage.put(key, png);
      void removeOlder(folder, key);
      return png;
    });

  return {
    async png(page, card) {
      const folder = `${OG_PREFIX}${page}/`;
      const key = `${folder}${cardVersion(card)}.png`;
      const stored = await storage.read(key);
      if (stored) return stored;
      let work = making.get(key);
      if (!work) {
        work = makeOnce(folder, key, card).finally(() => making.delete(key));
        making.set(key, work);
      }
      return work;
    },
  };
}
