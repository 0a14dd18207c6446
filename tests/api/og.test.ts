import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { blueprints, nfts, saleListings, storefronts } from '../../server/db/schema';
import { blueprintCard, cardVersion, packCard, type ShareCard } from '../../server/og/card';
import { createShareImages, limiter } from '../../server/og/images';
import { inFont } from '../../server/og/render';
import { insertBlueprint, insertPack, insertStorefront, insertUser } from '../../server/seed/factory';
import { databases, flowAddress, type TestApi, useTestApp } from './support/harness';

/** A square JPEG of one color, stored under `key` of the media store: its /media/ URL. */
async function storeArt(t: TestApi, key: string, color: string): Promise<string> {
  const bytes = await sharp({ create: { width: 800, height: 800, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
  await t.storage.put(key, bytes);
  return `/media/${key}`;
}

/** GET of a binary answer: status, headers and the bytes. */
async function getBytes(t: TestApi, path: string, headers: Record<string, string> = {}) {
  const res = await t.app.request(path, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const versionOf = (url: string) => new URL(url, 'http://x').searchParams.get('v');

/** Share images: GET /og/nft/{id}.png and /og/s/{vanityUrl}.png, and the answers' shareImage. */
describe.each(databases)('share images on %s', (database) => {
  const t = useTestApp(database);
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const db = t.database.db;
    const owner = async (n: string) =>
      insertUser(db, { email: `${n}@example.com`, username: n, firstName: n, walletAddress: undefined });
    const logoUrl = await storeArt(t, 'seed/og-logo.jpg', '#5b3df5');
    const shop = await insertStorefront(db, {
      ownerId: (await owner('ogshop')).id,
      name: 'Night Loops',
      vanityUrl: 'night-loops',
      description: 'Loops recorded at night.',
      logoUrl,
    });
    const closed = await insertStorefront(db, {
      ownerId: (await owner('ogclosed')).id,
      name: 'Closed Shop',
      vanityUrl: 'closed-shop',
      enabled: false,
    });
    const art = await storeArt(t, 'seed/og-art.jpg', '#f2a65a');
    const bp = (title: string, price: number, extra = {}) =>
      insertBlueprint(db, {
        storefrontId: shop.id,
        title,
        price,
        quantity: 10,
        previewImageUrl: art,
        ...extra,
      });
    const harbor = await bp('Harbor Lights', 2500);
    ids.harbor = harbor.id;
    ids.hidden = (await bp('Hidden Harbor', 100, { visible: false })).id;
    ids.draft = (await bp('Draft Harbor', 100, { state: 'created' })).id;
    ids.closedItem = (
      await insertBlueprint(db, { storefrontId: closed.id, title: 'Shut', price: 100, quantity: 1 })
    ).id;
    ids.pack = (
      await insertPack(db, { storefrontId: shop.id, title: 'Starter Pack', price: 3000, quantity: 5 })
    ).id;
    ids.shop = shop.id;
    const [nft] = await db
      .insert(nfts)
      .values({ id: '4711', blueprintId: harbor.flowBlueprintId, serialNumber: 3, owner: flowAddress() })
      .returning();
    ids.nft = nft!.id;
    ids.nftOwner = nft!.owner;
  });

  const imageOf = async (path: string) => (await t.request('GET', path)).body.shareImage;

  it('draws an item as a 1200 × 630 PNG with its ETag and short cache headers', async () => {
    const res = await getBytes(t, `/og/nft/${ids.harbor}.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const meta = await sharp(res.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 630]);
    const shareImage = await imageOf(`/api/blueprints/${ids.harbor}`);
    expect(shareImage).toEqual({
      url: expect.stringMatching(new RegExp(`^/og/nft/${ids.harbor}\\.png\\?v=[0-9a-f]{16}$`)),
      width: 1200,
      height: 630,
    });
    expect(res.headers.get('etag')).toBe(`"${versionOf(shareImage.url)}"`);
  });

  it('caches the versioned URL for good and answers a matching If-None-Match with 304', async () => {
    const { url } = await imageOf(`/api/blueprints/${ids.harbor}`);
    const first = await getBytes(t, url);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = first.headers.get('etag')!;
    const again = await getBytes(t, url, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers.get('etag')).toBe(etag);
    expect((await getBytes(t, url, { 'If-None-Match': `"0000000000000000", W/${etag}` })).status).toBe(304);
    expect((await getBytes(t, url, { 'If-None-Match': '"0000000000000000"' })).status).toBe(200);
  });

  it('names a new version, and draws a different image, when the price or the title changes', async () => {
    const db = t.database.db;
    const before = await imageOf(`/api/blueprints/${ids.harbor}`);
    const oldBytes = (await getBytes(t, before.url)).bytes;
    await db.update(blueprints).set({ price: 4200 }).where(eq(blueprints.id, ids.harbor!));
    const repriced = await imageOf(`/api/blueprints/${ids.harbor}`);
    expect(versionOf(repriced.url)).not.toBe(versionOf(before.url));
    const newBytes = (await getBytes(t, repriced.url)).bytes;
    expect(newBytes.equals(oldBytes)).toBe(false);
    await db.update(blueprints).set({ title: 'Harbor Lights II' }).where(eq(blueprints.id, ids.harbor!));
    const renamed = await imageOf(`/api/blueprints/${ids.harbor}`);
    expect(versionOf(renamed.url)).not.toBe(versionOf(repriced.url));
    const renamedBytes = (await getBytes(t, renamed.url)).bytes;
    expect(renamedBytes.equals(newBytes)).toBe(false);
    // The old URL answers the current image, cached briefly: it is no longer that version.
    const stale = await getBytes(t, before.url);
    expect(stale.headers.get('cache-control')).toBe('public, max-age=300');
    expect(stale.headers.get('etag')).toBe(`"${versionOf(renamed.url)}"`);
    expect(stale.bytes.equals(renamedBytes)).toBe(true);
  });

  it('names a new version when the editions run out', async () => {
    const before = await imageOf(`/api/blueprints/${ids.harbor}`);
    await t.database.db
      .update(blueprints)
      .set({ quantityAvailable: 0 })
      .where(eq(blueprints.id, ids.harbor!));
    const after = await imageOf(`/api/blueprints/${ids.harbor}`);
    await t.database.db
      .update(blueprints)
      .set({ quantityAvailable: 10 })
      .where(eq(blueprints.id, ids.harbor!));
    expect(versionOf(after.url)).not.toBe(versionOf(before.url));
  });

  it('draws a pack and an NFT, at the versions their answers name', async () => {
    const pack = await imageOf(`/api/blueprint-packs/${ids.pack}`);
    const packImage = await getBytes(t, pack.url);
    expect(packImage.status).toBe(200);
    expect(packImage.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const nft = await imageOf(`/api/nfts/${ids.nft}`);
    expect(nft.url).toMatch(/^\/og\/nft\/4711\.png\?v=[0-9a-f]{16}$/);
    const nftImage = await getBytes(t, nft.url);
    expect(nftImage.status).toBe(200);
    expect(nftImage.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await sharp(nftImage.bytes).metadata()).width).toBe(1200);
    // Listed for resale: its price is on the image, a new version.
    await t.database.db.insert(saleListings).values({
      blockchainListingId: '94711',
      seller: ids.nftOwner!,
      nftId: ids.nft!,
      price: 1800,
    });
    const listed = await imageOf(`/api/nfts/${ids.nft}`);
    expect(versionOf(listed.url)).not.toBe(versionOf(nft.url));
    expect((await getBytes(t, listed.url)).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
  });

  it('draws a storefront, anew when its name or logo changes', async () => {
    const before = await imageOf('/api/storefronts/night-loops');
    expect(before.url).toMatch(/^\/og\/s\/night-loops\.png\?v=[0-9a-f]{16}$/);
    const res = await getBytes(t, before.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await sharp(res.bytes).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });
    await t.database.db.update(storefronts).set({ name: 'Day Loops' }).where(eq(storefronts.id, ids.shop!));
    const renamed = await imageOf('/api/storefronts/night-loops');
    expect(versionOf(renamed.url)).not.toBe(versionOf(before.url));
    // The item images show the storefront's name too.
    const item = await imageOf(`/api/blueprints/${ids.harbor}`);
    const logoUrl = await storeArt(t, 'seed/og-logo-2.jpg', '#17804a');
    await t.database.db.update(storefronts).set({ logoUrl }).where(eq(storefronts.id, ids.shop!));
    expect(versionOf((await imageOf('/api/storefronts/night-loops')).url)).not.toBe(versionOf(renamed.url));
    expect(versionOf((await imageOf(`/api/blueprints/${ids.harbor}`)).url)).not.toBe(versionOf(item.url));
  });

  it('answers 404 for unknown, hidden, draft and suspended items and storefronts', async () => {
    const shown = [`/og/nft/${ids.harbor}.png`, `/og/nft/${ids.nft}.png`, '/og/s/night-loops.png'];
    for (const path of shown) expect([path, (await getBytes(t, path)).status]).toEqual([path, 200]);
    const missing = [
      '/og/nft/00000000-0000-4000-8000-000000000000.png',
      '/og/nft/999999.png',
      '/og/nft/not-an-id.png',
      `/og/nft/${ids.harbor}.jpg`,
      `/og/nft/${ids.hidden}.png`,
      `/og/nft/${ids.draft}.png`,
      `/og/nft/${ids.closedItem}.png`,
      '/og/s/closed-shop.png',
      '/og/s/no-such-shop.png',
    ];
    for (const path of missing) expect([path, (await getBytes(t, path)).status]).toEqual([path, 404]);
    await t.database.db
      .update(storefronts)
      .set({ suspended: true, enabled: false })
      .where(eq(storefronts.id, ids.shop!));
    try {
      for (const path of shown) expect([path, (await getBytes(t, path)).status]).toEqual([path, 404]);
    } finally {
      await t.database.db
        .update(storefronts)
        .set({ suspended: false, enabled: true })
        .where(eq(storefronts.id, ids.shop!));
    }
  });

  it('rejects a v that is no version', async () => {
    const res = await t.request('GET', `/og/nft/${ids.harbor}.png?v=../../x`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_VALUE', field: 'v' });
  });

  it('makes an image once for many requests at once, and stores it', async () => {
    const db = t.database.db;
    await db
      .update(blueprints)
      .set({ title: 'Harbor Lights (single flight)' })
      .where(eq(blueprints.id, ids.harbor!));
    const put = vi.spyOn(t.storage, 'put');
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => getBytes(t, `/og/nft/${ids.harbor}.png`)),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(answers.every((a) => a.bytes.equals(answers[0]!.bytes))).toBe(true);
      const stored = put.mock.calls.filter(([key]) => key.startsWith('og/'));
      expect(stored.map(([key]) => key)).toEqual([
        `og/nft/${ids.harbor}/${answers[0]!.headers.get('etag')!.replaceAll('"', '')}.png`,
      ]);
      // Asked again, it is read from the store.
      await getBytes(t, `/og/nft/${ids.harbor}.png`);
      expect(put.mock.calls.filter(([key]) => key.startsWith('og/'))).toHaveLength(1);
    } finally {
      put.mockRestore();
    }
    // Only the current version of a page is kept.
    await vi.waitFor(async () => {
      const now = [];
      for await (const object of t.storage.list(`og/nft/${ids.harbor}/`)) now.push(object.key);
      expect(now).toHaveLength(1);
    });
  });
});

describe('making share images', () => {
  const card = (title: string): ShareCard => ({
    title,
    price: '$1',
    note: null,
    artwork: null,
    storefront: null,
  });

  it('runs at most two makings at once, each version once', async () => {
    const stored = new Map<string, Buffer>();
    const storage = {
      read: async (key: string) => stored.get(key) ?? null,
      put: async (key: string, bytes: Uint8Array) => void stored.set(key, Buffer.from(bytes)),
      list: async function* () {},
      remove: async () => undefined,
    } as unknown as Parameters<typeof createShareImages>[0];
    let running = 0;
    let most = 0;
    const made: string[] = [];
    const images = createShareImages(
      storage,
      async (c) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        made.push(c.title);
        return Buffer.from(c.title);
      },
      { error: () => undefined },
    );
    const titles = ['a', 'b', 'c', 'd', 'e', 'a', 'b'];
    const pngs = await Promise.all(titles.map((title) => images.png(`nft/${title}`, card(title))));
    expect(pngs.map(String)).toEqual(titles);
    expect(most).toBe(2);
    expect(made.sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('lets every queued call run in turn', async () => {
    const limit = limiter(1);
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => limit(async () => void order.push(n))));
    expect(order).toEqual([1, 2, 3]);
  });
});

describe('share cards', () => {
  const storefront = {
    id: 's',
    name: 'Night Loops',
    logoUrl: null,
    theme: 'light',
    vanityUrl: 'n',
    category: null,
  };
  const item = {
    title: 'Harbor',
    previewImageUrl: null,
    storefront,
    price: 2550,
    isSoldOut: false,
    pack: null,
  };

  it('shows the price from cents, Free for nothing, Sold out when no edition is left', () => {
    const of = (over: object) => blueprintCard({ ...item, ...over } as never).price;
    expect(of({})).toBe('$25.50');
    expect(of({ price: 100_000 })).toBe('$1,000');
    expect(of({ price: 0 })).toBe('Free');
    expect(of({ isSoldOut: true })).toBe('Sold out');
    expect(
      packCard({ title: 'P', price: 3000, quantityAvailable: 0, state: 'available' } as never).price,
    ).toBe('Sold out');
  });

  it('draws the scripts Inter has and leaves out what it has no glyph for', () => {
    expect(inFont('Nuit étoilée 🌙 夜の港 Ωμέγα Привет Việt')).toBe('Nuit étoilée Ωμέγα Привет Việt');
  });

  it('versions what the card shows', () => {
    const card = blueprintCard(item as never);
    expect(cardVersion(card)).toMatch(/^[0-9a-f]{16}$/);
    expect(cardVersion({ ...card })).toBe(cardVersion(card));
    expect(cardVersion({ ...card, storefront: { name: 'Other', logoUrl: null } })).not.toBe(
      cardVersion(card),
    );
  });
});
