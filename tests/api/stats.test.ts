import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { upsertListing } from '../../server/chain/facts';
import { blueprints, nfts, orderItems, orders, saleListings, storefronts } from '../../server/db/schema';
import { refreshStats, STATS_REFRESH_MS } from '../../server/stats/refresh';
import { bothDatabases, flowAddress, register, type TestApi, useTestApp } from './support/harness';
import { blueprint, creator, sale } from './support/sales';

/**
 * Storefront stats (floor, volume and sales over 24 h / 7 d / all time, owners, listed), the
 * Trending sort and Home's lists: read from the summaries the job worker refreshes every minute.
 */
const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe.each(bothDatabases)('storefront stats and trending on %s', (database) => {
  const t = useTestApp(database);
  const db = () => t.database.db;
  /** What the job worker does every STATS_REFRESH_MS. */
  const refresh = () => refreshStats(db(), t.clock.now());
  const stats = (id: string, token?: string) => t.request('GET', `/api/storefronts/${id}/stats`, { token });
  let serials = 0;
  const at = (msAgo: number) => new Date(t.clock.now().getTime() - msAgo);

  afterEach(() => vi.restoreAllMocks());

  async function listing(t: TestApi, nftId: string, price: number) {
    const blockchainListingId = `${randomBytes(4).readUInt32BE()}`;
    await db().transaction((tx) =>
      upsertListing(tx, { blockchainListingId, seller: flowAddress(), nftId, price }, t.clock.now()),
    );
    return blockchainListingId;
  }

  /** A paid order of new editions, not minted yet (captured). */
  async function paidOrder(bps: { id: string; flowBlueprintId: number }[], amount: number, createdAt: Date) {
    const buyer = await register(t);
    const [order] = await db()
      .insert(orders)
      .values({
        buyerId: buyer.id,
        idempotencyKey: randomBytes(8).toString('hex'),
        method: 'creditCard',
        itemKind: 'blueprint',
        itemId: bps[0]!.id,
        title: 'An order',
        amount,
        walletAddress: flowAddress(),
        status: 'captured',
        reserved: false,
        expiresAt: createdAt,
        createdAt,
      })
      .returning();
    await db()
      .insert(orderItems)
      .values(
        bps.map((b) => ({ orderId: order!.id, blueprintId: b.id, flowBlueprintId: b.flowBlueprintId })),
      );
  }

  it('counts floor, volume and sales per window, owners and listed', async () => {
    t.clock.freeze();
    const shop = await creator(t);
    const item = await blueprint(t, shop.storefront.id, { price: 2500 });
    const other = await blueprint(t, shop.storefront.id, { price: 4000 });
    // Neither sets the floor: one sold out, one hidden.
    const soldOut = await blueprint(t, shop.storefront.id, { price: 100 });
    const hidden = await blueprint(t, shop.storefront.id, { price: 200 });
    await db().update(blueprints).set({ quantityAvailable: 0 }).where(eq(blueprints.id, soldOut.id));
    await db().update(blueprints).set({ visible: false }).where(eq(blueprints.id, hidden.id));

    const holder = flowAddress();
    // Sales: $10 an hour ago, $20 a resale 3 days ago, $5 ten days ago; a free claim is no sale.
    const first = await sale(t, item, { serial: ++serials, amount: 1000, purchasedOn: at(HOUR) });
    await sale(t, other, { serial: ++serials, amount: 2000, purchasedOn: at(3 * DAY), type: 'saleListing' });
    await sale(t, item, { serial: ++serials, amount: 500, purchasedOn: at(10 * DAY) });
    await sale(t, item, { serial: ++serials, amount: 0, purchasedOn: at(HOUR), type: 'freeBlueprintClaim' });
    // A paid order of two editions not minted yet: $10.01 split 501 + 500.
    await paidOrder([item, other], 1001, at(2 * HOUR));
    // Two of its four NFTs with one holder: 3 holders.
    await db().update(nfts).set({ owner: holder }).where(eq(nfts.id, first.nftId));
    const [second] = await db().select().from(nfts).where(eq(nfts.blueprintId, other.flowBlueprintId));
    await db().update(nfts).set({ owner: holder }).where(eq(nfts.id, second!.id));
    // A resale listing below the new editions' $25 is the floor.
    const listed = await listing(t, first.nftId, 1800);

    await refresh();
    const res = await stats(shop.storefront.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      storefrontId: shop.storefront.id,
      floor: 1800,
      volume24h: 1000 + 1001,
      sales24h: 3,
      volume7d: 1000 + 1001 + 2000,
      sales7d: 4,
      volumeAllTime: 1000 + 1001 + 2000 + 500,
      salesAllTime: 5,
      owners: 3,
      listed: 1,
      updatedAt: t.clock.now().toISOString(),
    });

    // The listing gone, the new editions' $25 is the floor; nothing for sale: no floor.
    await db()
      .update(saleListings)
      .set({ status: 'cancelled' })
      .where(eq(saleListings.blockchainListingId, listed));
    await refresh();
    expect((await stats(shop.storefront.id)).body).toMatchObject({ floor: 2500, listed: 0 });
    await db()
      .update(blueprints)
      .set({ state: 'soldOut' })
      .where(eq(blueprints.storefrontId, shop.storefront.id));
    await refresh();
    expect((await stats(shop.storefront.id)).body.floor).toBeNull();
  });

  it('ends the windows at 24 hours and 7 days, counted at each refresh', async () => {
    t.clock.freeze();
    const shop = await creator(t);
    const item = await blueprint(t, shop.storefront.id);
    await sale(t, item, { serial: ++serials, amount: 100, purchasedOn: at(DAY - 1) });
    await sale(t, item, { serial: ++serials, amount: 200, purchasedOn: at(7 * DAY - 1) });
    await refresh();
    expect((await stats(shop.storefront.id)).body).toMatchObject({
      volume24h: 100,
      volume7d: 300,
      volumeAllTime: 300,
    });
    // One millisecond on, each sale is exactly at its window's edge: out of it.
    t.clock.advance(1);
    await refresh();
    expect((await stats(shop.storefront.id)).body).toMatchObject({
      volume24h: 0,
      sales24h: 0,
      volume7d: 100,
      sales7d: 1,
      volumeAllTime: 300,
      salesAllTime: 2,
    });
  });

  it('shows a new sale within a minute: at the next refresh', async () => {
    expect(STATS_REFRESH_MS).toBeLessThanOrEqual(60_000);
    t.clock.freeze();
    const shop = await creator(t);
    const item = await blueprint(t, shop.storefront.id);
    await refresh();
    await sale(t, item, { serial: ++serials, amount: 700, purchasedOn: t.clock.now() });
    expect((await stats(shop.storefront.id)).body.volume24h).toBe(0);
    t.clock.advance(STATS_REFRESH_MS);
    await refresh();
    expect((await stats(shop.storefront.id)).body).toMatchObject({ volume24h: 700, sales24h: 1 });
  });

  it('counts a storefront newer than the last refresh when first asked', async () => {
    const shop = await creator(t);
    await blueprint(t, shop.storefront.id, { price: 900 });
    expect((await stats(shop.storefront.id)).body).toMatchObject({ floor: 900, salesAllTime: 0 });
  });

  it('answers 404 for an unknown storefront or id and, to visitors, a disabled one', async () => {
    const shop = await creator(t);
    await db().update(storefronts).set({ enabled: false }).where(eq(storefronts.id, shop.storefront.id));
    expect((await stats(shop.storefront.id)).status).toBe(404);
    const stranger = await register(t);
    expect((await stats(shop.storefront.id, stranger.authToken)).status).toBe(404);
    expect((await stats(shop.storefront.id, shop.authToken)).status).toBe(200);
    expect((await stats('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // A path that names no storefront id is no storefront, as on every route with an id.
    expect((await stats('not-a-storefront')).status).toBe(404);
  });

  it('sorts the marketplace by Trending: sales in the last 24 hours, ties by volume', async () => {
    t.clock.freeze();
    const shop = await creator(t);
    const [none, one, twoSmall, twoBig, old] = await Promise.all(
      ['None', 'One', 'Two small', 'Two big', 'Old'].map((title) =>
        blueprint(t, shop.storefront.id, { title: `Trend ${title}` }),
      ),
    );
    await sale(t, one!, { serial: ++serials, amount: 9000, purchasedOn: at(HOUR) });
    for (const amount of [100, 200])
      await sale(t, twoSmall!, { serial: ++serials, amount, purchasedOn: at(HOUR) });
    for (const amount of [300, 400])
      await sale(t, twoBig!, { serial: ++serials, amount, purchasedOn: at(HOUR) });
    await sale(t, old!, { serial: ++serials, amount: 50_000, purchasedOn: at(2 * DAY) });
    await refresh();
    const titles = async (query: string) =>
      (
        await t.request(
          'GET',
          `/api/blueprints?storefrontId=${shop.storefront.id}&sort[column]=trending&sort[direction]=desc&${query}`,
        )
      ).body.results.map((b: { title: string }) => b.title);
    const trending = ['Trend Two big', 'Trend Two small', 'Trend One'];
    expect((await titles('')).slice(0, 3)).toEqual(trending);
    expect((await titles('')).slice(3).sort()).toEqual(['Trend None', 'Trend Old']);
    // A title search sorts the same way (its rows read each match's key).
    expect((await titles('search=trend')).slice(0, 3)).toEqual(trending);
    // The marketplace's first page has them in that order too.
    const market = (
      await t.request('GET', '/api/blueprints?sort[column]=trending&sort[direction]=desc&to=24')
    ).body.results.map((b: { id: string }) => b.id);
    expect(market.filter((id: string) => [one!.id, twoSmall!.id, twoBig!.id].includes(id))).toEqual([
      twoBig!.id,
      twoSmall!.id,
      one!.id,
    ]);
    // A day later nothing of theirs trends any more.
    t.clock.advance(DAY);
    await refresh();
    expect((await t.request('GET', `/api/blueprints/${none!.id}`)).status).toBe(200);
    const later = await t.request(
      'GET',
      `/api/blueprints?storefrontId=${shop.storefront.id}&sort[column]=trending&sort[direction]=desc`,
    );
    expect(later.body.results.map((b: { id: string }) => b.id)).toEqual(
      [none, one, twoSmall, twoBig, old]
        .map((b) => b!.id)
        .sort()
        .reverse(),
    );
  });

  it('serves Home’s lists from memory for a minute, then as the last refresh counted', async () => {
    t.clock.freeze();
    const shop = await creator(t);
    const item = await blueprint(t, shop.storefront.id, { title: 'Home star' });
    // More sales and volume than any other test's: first in both lists.
    for (let i = 0; i < 5; i++)
      await sale(t, item, { serial: ++serials, amount: 180_000_000, purchasedOn: at(HOUR) });
    await refresh();
    t.clock.advance(STATS_REFRESH_MS);
    const first = await t.request('GET', '/api/home/trending');
    expect(first.status).toBe(200);
    expect(first.body.items.length).toBeLessThanOrEqual(8);
    expect(first.body.storefronts.length).toBeLessThanOrEqual(6);
    expect(first.body.items[0]).toMatchObject({ id: item.id, title: 'Home star' });
    expect(first.body.storefronts[0]).toMatchObject({
      storefront: { id: shop.storefront.id },
      stats: { volume7d: 900_000_000 },
    });

    // A new storefront outsells it, counted by a refresh: Home keeps its lists, and asks nothing.
    const rival = await creator(t);
    const hit = await blueprint(t, rival.storefront.id, { title: 'Home rival' });
    for (let i = 0; i < 6; i++)
      await sale(t, hit, { serial: ++serials, amount: 160_000_000, purchasedOn: at(HOUR) });
    await refresh();
    const database = db();
    const asked = ['select', 'selectDistinct', 'execute', 'transaction', 'insert', 'update'].map((m) =>
      vi.spyOn(database, m as 'select'),
    );
    const again = await t.request('GET', '/api/home/trending');
    expect(asked.every((spy) => spy.mock.calls.length === 0)).toBe(true);
    expect(again.body).toEqual(first.body);
    vi.restoreAllMocks();

    // A minute later Home shows the refresh's lists.
    t.clock.advance(STATS_REFRESH_MS);
    const later = await t.request('GET', '/api/home/trending');
    expect(later.body.items[0]).toMatchObject({ id: hit.id });
    expect(later.body.storefronts[0]).toMatchObject({ storefront: { id: rival.storefront.id } });
  });

  it('lists storefronts with their stats, sorted by volume when asked', async () => {
    t.clock.freeze();
    const big = await creator(t);
    const small = await creator(t);
    for (const [shop, amount] of [
      [big, 800_000_000_000],
      [small, 700_000_000_000],
    ] as const) {
      const item = await blueprint(t, shop.storefront.id);
      await sale(t, item, { serial: ++serials, amount, purchasedOn: at(HOUR) });
    }
    await refresh();
    const res = await t.request('GET', '/api/storefronts?sort[column]=volume&sort[direction]=desc&to=2');
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { id: string }) => r.id)).toEqual([
      big.storefront.id,
      small.storefront.id,
    ]);
    expect(res.body.results[0].stats).toMatchObject({ volumeAllTime: 800_000_000_000, floor: 2500 });
    expect((await t.request('GET', '/api/storefronts?sort[column]=sales')).status).toBe(400);
  });
});
