import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, count, eq, gt, isNotNull, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storefrontCategories } from '#domain/enums';
import { getChainBlueprint, ownsNft } from '../../server/chain/actions';
import { type DatabaseHandle, openDb } from '../../server/db';
import {
  blueprintPacks,
  blueprintRegistrations,
  blueprints,
  nftPurchases,
  nfts,
  saleListings,
  storefronts,
} from '../../server/db/schema';
import { catalogIsEmpty, seedWorld } from '../../server/seed/world';
import { localStorage } from '../../server/storage/local';
import { testConfig } from '../api/support/harness';
import { chainClient } from './support';

/** The embedded world (issue 4 §1), seeded into PGlite and onto the emulator. */
const client = chainClient();
const dir = mkdtempSync(join(tmpdir(), 'vitrine-seed-'));
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openDb(testConfig('memory://', dir));
  expect(await catalogIsEmpty(handle.db)).toBe(true);
  await seedWorld({
    db: handle.db,
    media: { storage: localStorage(join(dir, 'media')) },
    client,
    log: { info() {} },
  });
}, 180_000);
afterAll(async () => {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the seeded world', () => {
  it('has at least 12 storefronts across all 10 categories and both themes', async () => {
    const rows = await handle.db.select().from(storefronts);
    expect(rows.length).toBeGreaterThanOrEqual(12);
    expect(new Set(rows.map((r) => r.category))).toEqual(new Set(storefrontCategories));
    expect(new Set(rows.map((r) => r.theme))).toEqual(new Set(['light', 'dark']));
    expect(await catalogIsEmpty(handle.db)).toBe(false);
  });

  it('has at least 60 blueprints: standalone, stickers, packs, free, sold out, future and live drops, every rarity', async () => {
    const rows = await handle.db.select().from(blueprints);
    expect(rows.length).toBeGreaterThanOrEqual(60);
    const types = new Set(rows.map((r) => r.type));
    for (const t of ['standalone', 'sticker', 'standaloneInPack', 'stickerInPack'])
      expect(types).toContain(t);
    expect(rows.some((r) => r.price === 0 && !r.blueprintPackId)).toBe(true);
    expect(rows.some((r) => r.state === 'soldOut' && r.quantityAvailable === 0)).toBe(true);
    const now = Date.now();
    const future = rows.filter((r) => r.drop && r.availableTime && r.availableTime.getTime() > now);
    expect(future.some((r) => r.availableTime!.getTime() - now > 99 * 3_600_000)).toBe(true);
    expect(future.some((r) => r.availableTime!.getTime() - now < 99 * 3_600_000)).toBe(true);
    expect(rows.some((r) => r.drop && r.availableTime && r.availableTime.getTime() < now)).toBe(true);
    expect(new Set(rows.map((r) => r.rarityLevel))).toEqual(
      new Set(['common', 'uncommon', 'rare', 'ultraRare', 'legendary']),
    );
    const [{ packs }] = (await handle.db.select({ packs: count() }).from(blueprintPacks)) as [
      { packs: number },
    ];
    expect(Number(packs)).toBeGreaterThanOrEqual(2);
  });

  it('registered the items on sale or sold out on chain (not the cards inside packs)', async () => {
    const rows = await handle.db.select().from(blueprints);
    const jobs = await handle.db.select().from(blueprintRegistrations);
    expect(jobs.length).toBeGreaterThan(30);
    expect(new Set(jobs.map((j) => j.status))).toEqual(new Set(['sealed']));
    const byId = new Map(rows.map((b) => [b.id, b]));
    for (const job of jobs) {
      expect(['available', 'active', 'printed', 'soldOut']).toContain(byId.get(job.blueprintId)?.state);
    }
    for (const job of jobs.slice(0, 5)) {
      expect(await getChainBlueprint(client, job.flowBlueprintId)).toMatchObject({
        maxEditions: String(byId.get(job.blueprintId)!.quantity),
        open: true,
      });
    }
    // Cards inside packs are sold with their pack, not registered on their own.
    const registered = new Set(jobs.map((j) => j.blueprintId));
    const inPack = rows.find((b) => b.blueprintPackId && !registered.has(b.id));
    expect(inPack).toBeDefined();
    expect(await getChainBlueprint(client, inPack!.flowBlueprintId)).toBeNull();
  });

  it('made real images and an mp4 on this machine', async () => {
    const [row] = await handle.db.select().from(blueprints).where(sql`${blueprints.assetUrl} like '%.mp4'`);
    expect(row).toBeDefined();
    const mp4 = join(dir, 'media', row!.assetUrl!.replace('/media/', ''));
    expect(statSync(mp4).size).toBeGreaterThan(10_000);
    const [image] = await handle.db.select().from(blueprints).where(isNotNull(blueprints.previewImageUrl));
    const meta = await sharp(join(dir, 'media', image!.previewImageUrl!.replace('/media/', ''))).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1000, height: 1000 });
    expect(existsSync(join(dir, 'media'))).toBe(true);
  });

  it('minted NFTs on the chain to collectors, with purchase history and active resale listings', async () => {
    const owned = await handle.db.select().from(nfts);
    expect(owned.length).toBeGreaterThanOrEqual(20);
    for (const nft of owned.slice(0, 3)) expect(await ownsNft(client, nft.owner, nft.id)).toBe(true);
    const [{ purchases }] = (await handle.db.select({ purchases: count() }).from(nftPurchases)) as [
      { purchases: number },
    ];
    expect(Number(purchases)).toBe(owned.length);
    // Each edition was minted at its purchase: its history's creation is not newer than the purchase.
    const minted = await handle.db
      .select({ createdAt: nfts.createdAt, purchasedOn: nftPurchases.purchasedOn })
      .from(nfts)
      .innerJoin(nftPurchases, eq(nftPurchases.nftId, nfts.id));
    for (const row of minted) expect(row.createdAt.getTime()).toBe(row.purchasedOn.getTime());
    const listings = await handle.db
      .select()
      .from(saleListings)
      .where(and(eq(saleListings.status, 'active'), gt(saleListings.price, 0)));
    expect(listings.length).toBeGreaterThanOrEqual(5);
  });
});
