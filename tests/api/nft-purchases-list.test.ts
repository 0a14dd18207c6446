import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { MintService } from '../../server/chain/mint';
import { fusdRail } from '../../server/checkout/fusd/rail';
import { findCheckoutItem } from '../../server/checkout/items';
import { authorizeOrder } from '../../server/checkout/orders';
import { createFulfilment } from '../../server/checkout/workflow/fulfil';
import { reserveOn } from '../../server/checkout/workflow/reserve';
import { nfts, saleListings, users } from '../../server/db/schema';
import { insertBlueprint, insertPack } from '../../server/seed/factory';
import { databases, flowAddress, register, useTestApp } from './support/harness';
import { blueprint, creator, day, sale } from './support/sales';

/** Mints every edition at once, as the chain would seal it: token ids from 5,000,000 on. */
function fakeMint(): MintService {
  let next = 5_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
  return {
    mint: async (r) => ({
      purchaseKey: r.purchaseKey,
      status: 'sealed',
      recipient: r.to,
      blueprintId: r.blueprintId,
      serialNumber: r.serialNumber,
      transactionId: randomBytes(32).toString('hex'),
      nftId: String(next++),
    }),
    get: async () => undefined,
  };
}

/**
 * GET nfts/purchases: the caller's own purchases, newest first, at most 10 a page, with the item,
 * its storefront and the resale listing each one completed. Rows are written directly, as the
 * purchase route and the chain indexer leave them.
 */
describe.each(databases)('GET /api/nfts/purchases on %s', (database) => {
  const t = useTestApp(database);
  const purchases = (token: string | undefined, query = '') =>
    t.request('GET', `/api/nfts/purchases${query ? `?${query}` : ''}`, { token });

  /** A resale listing of the NFT, completed by the buyer. */
  async function listing(nftId: string, blockchainListingId: string, price: number) {
    const [row] = await t.database.db
      .insert(saleListings)
      .values({
        blockchainListingId,
        seller: flowAddress(),
        nftId,
        price,
        status: 'completed',
        completedOn: day(3),
      })
      .returning();
    return row!;
  }

  it('needs a signed-in caller: 401 anonymous', async () => {
    const res = await purchases(undefined);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('is its own route: "purchases" is not read as a token id, and GET nfts/{id} still answers', async () => {
    const buyer = await register(t);
    const res = await purchases(buyer.authToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ results: [], total: 0 });
    expect((await t.request('GET', '/api/nfts/123456789')).status).toBe(404);
  });

  it('answers only the caller’s purchases, newest first, with the item, storefront and listing', async () => {
    const shop = await creator(t);
    const bp = await blueprint(t, shop.storefront.id, { title: 'Night Market' });
    const buyer = await register(t);
    const other = await register(t);
    const first = await sale(t, bp, { serial: 1, amount: 2500, purchasedOn: day(1), buyerId: buyer.id });
    // Someone else's purchase, and one of nobody Vitrine knows, never show.
    await sale(t, bp, { serial: 2, amount: 2500, purchasedOn: day(2), buyerId: other.id });
    await sale(t, bp, { serial: 3, amount: 2500, purchasedOn: day(2), buyerId: null });
    // A resale of edition 1 to the buyer, through a listing Vitrine recorded.
    const resold = await listing(first.nftId, '7001', 4000);
    const resale = await sale(t, bp, {
      serial: 1,
      amount: 4000,
      purchasedOn: day(3),
      buyerId: buyer.id,
      type: 'saleListing',
      nftId: first.nftId,
      blockchainListingId: resold.blockchainListingId,
    });
    // An NFT minted from a blueprint Vitrine does not know, bought through a listing it never saw.
    const foreignId = `88${randomBytes(3).readUIntBE(0, 3)}`;
    await t.database.db
      .insert(nfts)
      .values({ id: foreignId, blueprintId: 999_999_999, serialNumber: 4, owner: flowAddress() });
    const foreign = await sale(
      t,
      { flowBlueprintId: 999_999_999 },
      {
        serial: 4,
        amount: 0,
        purchasedOn: day(4),
        buyerId: buyer.id,
        type: 'saleListing',
        nftId: foreignId,
        blockchainListingId: '7002',
      },
    );

    const res = await purchases(buyer.authToken);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.results.map((p: { id: string }) => p.id)).toEqual([foreign.id, resale.id, first.id]);
    const item = {
      id: bp.id,
      title: 'Night Market',
      previewImageUrl: '/media/seed/preview.png',
      storefront: { id: shop.storefront.id, name: shop.storefront.name },
    };
    expect(res.body.results).toEqual([
      {
        id: foreign.id,
        transactionId: foreign.transactionId,
        type: 'saleListing',
        amount: 0,
        purchasedOn: day(4).toISOString(),
        walletAddress: foreign.walletAddress,
        nft: { id: foreignId, seriesNumber: 4, metadata: {}, blueprint: null },
        blueprintId: null,
        blueprintPackId: null,
        nftSaleListingId: null,
        order: null,
      },
      {
        id: resale.id,
        transactionId: resale.transactionId,
        type: 'saleListing',
        amount: 4000,
        purchasedOn: day(3).toISOString(),
        walletAddress: resale.walletAddress,
        nft: { id: first.nftId, seriesNumber: 1, metadata: expect.any(Object), blueprint: item },
        blueprintId: bp.id,
        blueprintPackId: null,
        nftSaleListingId: resold.id,
        order: null,
      },
      {
        id: first.id,
        transactionId: first.transactionId,
        type: 'directPurchase',
        amount: 2500,
        purchasedOn: day(1).toISOString(),
        walletAddress: first.walletAddress,
        nft: { id: first.nftId, seriesNumber: 1, metadata: expect.any(Object), blueprint: item },
        blueprintId: bp.id,
        blueprintPackId: null,
        nftSaleListingId: null,
        order: null,
      },
    ]);
    // The other buyer sees their own one only.
    const theirs = await purchases(other.authToken);
    expect(theirs.body.total).toBe(1);
    expect(theirs.body.results[0].nft.seriesNumber).toBe(2);
  });

  it('tells a pack’s purchase whole: each edition’s purchase carries the pack, its price and every card minted', async () => {
    const shop = await creator(t);
    const db = t.database.db;
    const pack = await insertPack(db, {
      storefrontId: shop.storefront.id,
      title: 'Booster Pack: Series 1',
      price: 1500,
      quantity: 10,
      coverImageUrl: '/media/seed/cover.png',
    });
    const cards = [];
    for (const letter of ['A', 'B', 'C'])
      cards.push(
        await insertBlueprint(db, {
          storefrontId: shop.storefront.id,
          blueprintPackId: pack.id,
          title: `Card ${letter}`,
          price: 0,
          quantity: 10,
          type: 'stickerInPack',
          previewImageUrl: `/media/seed/card-${letter}.png`,
        }),
      );
    const buyer = await register(t);
    const walletAddress = flowAddress();
    await db.update(users).set({ walletAddress }).where(eq(users.id, buyer.id));
    // The pack is bought (paid with the balance: nothing to capture) and its fulfilment mints it.
    const now = t.clock.now();
    const item = await findCheckoutItem(db, { kind: 'pack', id: pack.id }, now);
    const { order } = await reserveOn(db, fusdRail, {
      buyerId: buyer.id,
      clientAddress: t.address,
      idempotencyKey: 'pack-receipt',
      item: item!,
      walletAddress,
      now,
    });
    await db.transaction((tx) => authorizeOrder(tx, order.id, now, null));
    await createFulfilment({ db, provider: null, mint: fakeMint(), now: t.clock.now }).fulfil(order.id);

    const res = await purchases(buyer.authToken);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    const editions = cards.map((card) => ({
      nftId: expect.stringMatching(/^\d+$/),
      blueprintId: card.id,
      title: card.title,
      previewImageUrl: card.previewImageUrl,
      seriesNumber: 1,
    }));
    for (const purchase of res.body.results) {
      expect(purchase.blueprintPackId).toBe(pack.id);
      expect(purchase.order).toEqual({
        id: order.id,
        item: {
          kind: 'pack',
          id: pack.id,
          title: 'Booster Pack: Series 1',
          coverImageUrl: '/media/seed/cover.png',
        },
        amount: 1500,
        editions,
      });
    }
    // Each card's purchase is one of the editions, and together they are all of them.
    expect(res.body.results.map((p: { nft: { id: string } }) => p.nft.id).sort()).toEqual(
      res.body.results[0].order.editions.map((e: { nftId: string }) => e.nftId).sort(),
    );
  });

  it('pages from 1 to at most 10 entries; a wider or reversed range is 400 INVALID_VALUE', async () => {
    const shop = await creator(t);
    const bp = await blueprint(t, shop.storefront.id);
    const buyer = await register(t);
    const made = [];
    for (let n = 1; n <= 12; n++)
      made.push(await sale(t, bp, { serial: n, amount: 100 * n, purchasedOn: day(n), buyerId: buyer.id }));
    const newestFirst = made.reverse().map((p) => p.id);
    const ids = (body: { results: { id: string }[] }) => body.results.map((p) => p.id);

    const first = await purchases(buyer.authToken);
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(12);
    expect(ids(first.body)).toEqual(newestFirst.slice(0, 10));
    expect(ids((await purchases(buyer.authToken, 'from=1&to=10')).body)).toEqual(newestFirst.slice(0, 10));
    expect(ids((await purchases(buyer.authToken, 'from=3&to=12')).body)).toEqual(newestFirst.slice(2, 12));
    expect(ids((await purchases(buyer.authToken, 'from=11')).body)).toEqual(newestFirst.slice(10));
    expect(ids((await purchases(buyer.authToken, 'from=5&to=5')).body)).toEqual([newestFirst[4]]);
    const past = await purchases(buyer.authToken, 'from=13&to=20');
    expect(past.body).toEqual({ results: [], total: 12 });

    for (const [query, field] of [
      ['from=1&to=11', 'to'],
      ['from=3&to=13', 'to'],
      ['from=5&to=4', 'to'],
      ['from=0&to=5', 'from'],
      ['from=-1', 'from'],
      ['from=abc', 'from'],
      ['to=0', 'to'],
      ['blueprintId=12', 'blueprintId'],
      ['storefrontId=nope', 'storefrontId'],
    ] as const) {
      const res = await purchases(buyer.authToken, query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ code: 'INVALID_VALUE', field });
    }
  });

  it('filters by Vitrine’s blueprint and by storefront', async () => {
    const shop = await creator(t);
    const otherShop = await creator(t);
    const wanted = await blueprint(t, shop.storefront.id);
    const sibling = await blueprint(t, shop.storefront.id);
    const elsewhere = await blueprint(t, otherShop.storefront.id);
    const buyer = await register(t);
    const a = await sale(t, wanted, { serial: 1, amount: 100, purchasedOn: day(1), buyerId: buyer.id });
    const b = await sale(t, sibling, { serial: 1, amount: 100, purchasedOn: day(2), buyerId: buyer.id });
    const c = await sale(t, elsewhere, { serial: 1, amount: 100, purchasedOn: day(3), buyerId: buyer.id });
    const a2 = await sale(t, wanted, { serial: 2, amount: 100, purchasedOn: day(4), buyerId: buyer.id });
    // Another buyer's purchase of the same blueprint stays out.
    await sale(t, wanted, { serial: 3, amount: 100, purchasedOn: day(5), buyerId: (await register(t)).id });
    const ids = (body: { results: { id: string }[] }) => body.results.map((p) => p.id);

    const ofBlueprint = await purchases(buyer.authToken, `blueprintId=${wanted.id}`);
    expect(ofBlueprint.status).toBe(200);
    expect(ofBlueprint.body.total).toBe(2);
    expect(ids(ofBlueprint.body)).toEqual([a2.id, a.id]);
    expect(ofBlueprint.body.results.every((p: { blueprintId: string }) => p.blueprintId === wanted.id)).toBe(
      true,
    );
    const ofShop = await purchases(buyer.authToken, `storefrontId=${shop.storefront.id}`);
    expect(ids(ofShop.body)).toEqual([a2.id, b.id, a.id]);
    expect(ofShop.body.total).toBe(3);
    const both = await purchases(
      buyer.authToken,
      `storefrontId=${otherShop.storefront.id}&blueprintId=${wanted.id}`,
    );
    expect(both.body).toEqual({ results: [], total: 0 });
    expect(ids((await purchases(buyer.authToken, `blueprintId=${elsewhere.id}`)).body)).toEqual([c.id]);
    const unknown = await purchases(buyer.authToken, 'blueprintId=00000000-0000-4000-8000-000000000000');
    expect(unknown.body).toEqual({ results: [], total: 0 });
  });
});
