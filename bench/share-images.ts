/**
 * Share images (`npx tsx bench/share-images.ts`): the time of GET /og/nft/{id}.png for an item, made
 * (each run after a title change, so a new version is drawn and stored) and cached (read back from the
 * media store), medians beside issue 38's targets (made ≤ 500 ms, cached ≤ 50 ms). Beside them, bare
 * references from the same run, so a slow day can be read: sharp resizing the same artwork to the
 * size the image shows it at, and one read of the stored PNG from the media store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { createApp } from '../server/app';
import { openDb } from '../server/db';
import { blueprints } from '../server/db/schema';
import { insertBlueprint, insertStorefront, insertUser } from '../server/seed/factory';
import { artSvg } from '../server/seed/media';
import { createStorage } from '../server/storage/config';
import { benchConfig } from './app';
import { percentile } from './checkout';

const MADE_TARGET_MS = 500;
const CACHED_TARGET_MS = 50;

/** Median milliseconds of `n` runs of `work` (after one unmeasured run). */
async function median(n: number, work: (i: number) => Promise<unknown>): Promise<number> {
  await work(-1);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await work(i);
    times.push(performance.now() - started);
  }
  return percentile(times, 50);
}

export async function shareImageTimes(made = 5, cached = 50) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-og-'));
  const config = benchConfig(dataDir);
  const database = await openDb(config);
  const storage = createStorage(config);
  const app = createApp({ config, database, log: { info() {}, error: console.error }, storage });
  try {
    const db = database.db;
    // Seed-like artwork: a 1600 × 1600 JPEG of the seed's compositions, with its 640 px copy.
    const artwork = await sharp(Buffer.from(artSvg('bench-og', 1600, 1600)))
      .jpeg({ quality: 85 })
      .toBuffer();
    await storage.put('seed/bench-og.jpg', artwork);
    const logo = await sharp(Buffer.from(artSvg('bench-og-logo', 400, 400)))
      .png()
      .toBuffer();
    await storage.put('seed/bench-og-logo.png', logo);
    const owner = await insertUser(db, { email: 'og@example.com', username: 'og', firstName: 'Og' });
    const shop = await insertStorefront(db, {
      ownerId: owner.id,
      name: 'Night Loops',
      vanityUrl: 'night-loops',
      logoUrl: '/media/seed/bench-og-logo.png',
    });
    const item = await insertBlueprint(db, {
      storefrontId: shop.id,
      title: 'Harbor Lights',
      price: 2500,
      quantity: 10,
      previewImageUrl: '/media/seed/bench-og.jpg',
    });
    const path = `/og/nft/${item.id}.png`;
    const get = async () => {
      const res = await app.request(path);
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    };
    const madeMs = await median(made, async (i) => {
      await db
        .update(blueprints)
        .set({ title: `Harbor Lights ${i + 2}` })
        .where(eq(blueprints.id, item.id));
      await get();
    });
    const png = await get();
    const cachedMs = await median(cached, get);
    const resizeMs = await median(made, () =>
      sharp(artwork).resize(534, 534, { fit: 'cover' }).jpeg({ quality: 88 }).toBuffer(),
    );
    let key = '';
    for await (const object of storage.list('og/')) key = object.key;
    const readMs = await median(cached, () => storage.read(key));
    return { madeMs, cachedMs, resizeMs, readMs, bytes: png.length, made, cached };
  } finally {
    await database.close();
    storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printShareImages(r: Awaited<ReturnType<typeof shareImageTimes>>) {
  const verdict = (ms: number, target: number) => (ms <= target ? 'met' : 'MISSED');
  console.log(
    `Share image of an item (GET /og/nft/{id}.png, 1200 × 630 PNG, ${(r.bytes / 1024).toFixed(0)} kB):`,
  );
  console.log(
    `  made:   median ${r.madeMs.toFixed(1)} ms of ${r.made} (target ≤ ${MADE_TARGET_MS} ms: ${verdict(r.madeMs, MADE_TARGET_MS)}); reference: sharp resizing its 1600 px artwork ${r.resizeMs.toFixed(1)} ms`,
  );
  console.log(
    `  cached: median ${r.cachedMs.toFixed(2)} ms of ${r.cached} (target ≤ ${CACHED_TARGET_MS} ms: ${verdict(r.cachedMs, CACHED_TARGET_MS)}); reference: reading the stored PNG ${r.readMs.toFixed(2)} ms`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printShareImages(await shareImageTimes());
}
