import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fillActivity } from '../../server/activity/backfill';
import { recordActivity, recordMintActivity, recordPurchaseActivity } from '../../server/activity/record';
import { endListing, recordSale, upsertListing, upsertNft } from '../../server/chain/facts';
import { activity, blueprints, users } from '../../server/db/schema';
import { databases, flowAddress, register, type TestApi, useTestApp } from './support/harness';
import { blueprint, creator, sale } from './support/sales';

/**
 * The activity feed: each fact of the chain and of the order records once (a replayed event or
 * record adds nothing), newest first, filtered by kind, storefront, item, NFT and user, paged by
 * from/to (at most 50).
 */

let tokens = 0;

/** A user with a wallet. */
async function walletUser(t: TestApi) {
  const me = await register(t);
  const walletAddress = flowAddress();
  await t.database.db.update(users).set({ walletAddress }).where(eq(users.id, me.id));
  return { ...me, walletAddress };
}

/**
 * The life of one NFT as the indexer applies it: minted to the seller, listed, bought by the buyer
 * in a resale, relisted and removed. `times` runs it again (a replay of the same events).
 */
async function nftLife(t: TestApi, flowBlueprintId: number, seller: string, buyer: string, times = 1) {
  const nftId = `${7_000_000 + ++tokens}`;
  const listingId = `${8_000_000 + tokens}`;
  const relistingId = `${8_500_000 + tokens}`;
  const saleTx = `sale-${nftId}`;
  for (let i = 0; i < times; i++) {
    await t.database.db.transaction(async (tx) => {
      const now = t.clock.now();
      await upsertNft(
        tx,
        { id: nftId, blueprintId: flowBlueprintId, serialNumber: tokens, owner: seller },
        now,
      );
      await recordMintActivity(tx, { nftId, to: seller, transactionId: `mint-${nftId}`, at: now });
    });
    t.clock.advance(1000);
    await t.database.db.transaction((tx) =>
      upsertListing(tx, { blockchainListingId: listingId, seller, nftId, price: 1250 }, t.clock.now()),
    );
    t.clock.advance(1000);
    await t.database.db.transaction((tx) =>
      recordSale(
        tx,
        { transactionId: saleTx, nftId, blockchainListingId: listingId, buyer, salePrice: '12.50000000' },
        t.clock.now(),
        t.clock.now(),
      ),
    );
    t.clock.advance(1000);
    await t.database.db.transaction((tx) =>
      upsertListing(
        tx,
        { blockchainListingId: relistingId, seller: buyer, nftId, price: 3000 },
        t.clock.now(),
      ),
    );
    t.clock.advance(1000);
    await t.database.db.transaction((tx) =>
      endListing(tx, relistingId, { purchased: false, transactionId: `delist-${nftId}` }, t.clock.now()),
    );
    t.clock.advance(1000);
  }
  return { nftId, listingId, relistingId, saleTx };
}

describe.each(databases)('activity on %s', (database) => {
  const t = useTestApp(database);
  const feed = (query = '') => t.request('GET', `/api/activity${query}`);
  const kinds = (body: { results: { kind: string }[] }) => body.results.map((r) => r.kind);

  it('shows an NFT’s mint, listing, resale and delisting once each, newest first, with item and users', async () => {
    const shop = await creator(t);
    const item = await blueprint(t, shop.storefront.id, { title: 'Lighthouse' });
    const [seller, buyer] = [await walletUser(t), await walletUser(t)];
    const life = await nftLife(t, item.flowBlueprintId, seller.walletAddress, buyer.walletAddress, 2);

    const res = await feed(`?nftId=${life.nftId}`);
    expect(res.status).toBe(200);
    expect(kinds(res.body)).toEqual(['delisting', 'listing', 'sale', 'listing', 'mint']);
    expect(res.body.hasMore).toBe(false);
    const [delisting, , resale, , mint] = res.body.results;
    expect(resale).toMatchObject({
      kind: 'sale',
      item: { nftId: life.nftId, blueprintId: item.id, title: 'Lighthouse', edition: tokens },
      price: 1250,
      from: { id: seller.id, username: seller.username, walletAddress: seller.walletAddress },
      to: { id: buyer.id, username: buyer.username, walletAddress: buyer.walletAddress },
      transactionId: life.saleTx,
    });
    expect(resale.item.imageUrl).toBe(item.previewImageUrl);
    expect(delisting).toMatchObject({ price: 3000, from: { id: buyer.id }, to: null });
    expect(mint).toMatchObject({ to: { id: seller.id }, from: null, price: null });
    expect(new Date(delisting.at) > new Date(mint.at)).toBe(true);
    // The replay added no row either.
    const rows = await t.database.db.select().from(activity).where(eq(activity.nftId, life.nftId));
    expect(rows).toHaveLength(5);
  });

  it('records a sale and the transfer of its transaction as one sale, in either order', async () => {
    const nftId = `${7_900_000 + ++tokens}`;
    const [a, b] = [flowAddress(), flowAddress()];
    const at = t.clock.now();
    const transfer = {
      key: `transfer:tx-${nftId}:1`,
      kind: 'transfer' as const,
      nftId,
      transactionId: `tx-${nftId}`,
    };
    await t.database.db.transaction(async (tx) => {
      await recordActivity(tx, { ...transfer, fromAddress: a, toAddress: b, at });
      await recordActivity(tx, {
        key: `purchase:tx-${nftId}`,
        kind: 'offerAccepted',
        nftId,
        transactionId: `tx-${nftId}`,
        price: 500,
        at,
      });
      await recordActivity(tx, { ...transfer, key: `transfer:tx-${nftId}:2`, at });
    });
    expect(kinds((await feed(`?nftId=${nftId}`)).body)).toEqual(['offerAccepted']);
  });

  it('shows a new edition’s purchase as a sale from the item’s maker; an offer purchase as offerAccepted', async () => {
    const shop = await creator(t);
    const item = await blueprint(t, shop.storefront.id);
    const buyer = await walletUser(t);
    const purchase = await sale(t, item, {
      serial: 1,
      amount: 2500,
      purchasedOn: t.clock.now(),
      buyerId: buyer.id,
    });
    const offer = await sale(t, item, { serial: 2, amount: 900, purchasedOn: t.clock.now(), type: 'offer' });
    await t.database.db.transaction(async (tx) => {
      await recordPurchaseActivity(tx, purchase);
      await recordPurchaseActivity(tx, purchase);
      await recordPurchaseActivity(tx, offer, flowAddress());
    });
    const res = await feed(`?blueprintId=${item.id}`);
    expect(kinds(res.body).sort()).toEqual(['offerAccepted', 'sale']);
    const entry = res.body.results.find((r: { kind: string }) => r.kind === 'sale');
    expect(entry).toMatchObject({ price: 2500, from: { id: shop.id }, to: { id: buyer.id } });
  });

  it('leaves out the entries of an item visitors cannot see: hidden, or its storefront offline', async () => {
    const shop = await creator(t);
    const [shown, hidden] = [await blueprint(t, shop.storefront.id), await blueprint(t, shop.storefront.id)];
    const [seller, buyer] = [await walletUser(t), await walletUser(t)];
    await nftLife(t, shown.flowBlueprintId, seller.walletAddress, buyer.walletAddress);
    const kept = await nftLife(t, hidden.flowBlueprintId, seller.walletAddress, buyer.walletAddress);
    const items = async (query: string) =>
      new Set(
        (await feed(query)).body.results.map((r: { item: { blueprintId: string } }) => r.item.blueprintId),
      );
    expect(await items(`?storefrontId=${shop.storefront.id}`)).toEqual(new Set([shown.id, hidden.id]));

    await t.database.db.update(blueprints).set({ visible: false }).where(eq(blueprints.id, hidden.id));
    expect(await items(`?storefrontId=${shop.storefront.id}`)).toEqual(new Set([shown.id]));
    expect((await feed(`?nftId=${kept.nftId}`)).body.results).toEqual([]);
    await t.database.db
      .update(blueprints)
      .set({ storefrontEnabled: false })
      .where(eq(blueprints.storefrontId, shop.storefront.id));
    expect((await feed(`?storefrontId=${shop.storefront.id}`)).body.results).toEqual([]);
  });

  it('filters by kinds, storefront, item and user (either side), and pages by from/to', async () => {
    const [shopA, shopB] = [await creator(t), await creator(t)];
    const [itemA, itemB] = [await blueprint(t, shopA.storefront.id), await blueprint(t, shopB.storefront.id)];
    const [seller, buyer, other] = [await walletUser(t), await walletUser(t), await walletUser(t)];
    await nftLife(t, itemA.flowBlueprintId, seller.walletAddress, buyer.walletAddress);
    await nftLife(t, itemB.flowBlueprintId, other.walletAddress, seller.walletAddress);

    expect(kinds((await feed(`?storefrontId=${shopA.storefront.id}`)).body)).toEqual([
      'delisting',
      'listing',
      'sale',
      'listing',
      'mint',
    ]);
    expect(kinds((await feed(`?blueprintId=${itemB.id}&kinds=sale,mint`)).body)).toEqual(['sale', 'mint']);
    const mine = (await feed(`?userId=${buyer.id}&kinds=sale,delisting`)).body.results;
    expect(mine.map((r: { kind: string }) => r.kind)).toEqual(['delisting', 'sale']);
    // The seller sold A's NFT and bought B's: both sales, either side.
    const sales = (await feed(`?userId=${seller.id}&kinds=sale`)).body.results;
    expect(sales.map((r: { item: { blueprintId: string } }) => r.item.blueprintId)).toEqual([
      itemB.id,
      itemA.id,
    ]);

    const all = (await feed(`?userId=${seller.id}`)).body.results.map((r: { id: string }) => r.id);
    expect(all).toHaveLength(6);
    const page = await feed(`?userId=${seller.id}&from=2&to=4`);
    expect(page.body.results.map((r: { id: string }) => r.id)).toEqual(all.slice(1, 4));
    expect(page.body.hasMore).toBe(true);
    expect((await feed(`?userId=${seller.id}&from=4&to=6`)).body.hasMore).toBe(false);
  });

  it('backfills records made before the feed, with the recorders’ keys: twice adds nothing', async () => {
    const shop = await creator(t);
    const item = await blueprint(t, shop.storefront.id);
    const buyer = await walletUser(t);
    const bought = await sale(t, item, {
      serial: 1,
      amount: 2500,
      purchasedOn: t.clock.now(),
      buyerId: buyer.id,
    });
    await fillActivity(t.database.db);
    await fillActivity(t.database.db);
    const res = await feed(`?blueprintId=${item.id}`);
    expect(kinds(res.body).sort()).toEqual(['mint', 'sale']);
    expect(res.body.results.find((r: { kind: string }) => r.kind === 'sale')).toMatchObject({
      price: 2500,
      from: { id: shop.id },
      to: { id: buyer.id },
      transactionId: bought.transactionId,
    });
    // A recorder seeing the same purchase later adds nothing either.
    await t.database.db.transaction((tx) => recordPurchaseActivity(tx, bought));
    expect(kinds((await feed(`?blueprintId=${item.id}`)).body)).toHaveLength(2);
  });

  it('answers 400 INVALID_VALUE naming the field for bad paging, kinds or ids', async () => {
    const cases: [string, string][] = [
      ['?from=0', 'from'],
      ['?from=3&to=2', 'to'],
      ['?from=1&to=51', 'to'],
      ['?kinds=sale,gift', 'kinds'],
      ['?storefrontId=nope', 'storefrontId'],
      ['?blueprintId=1', 'blueprintId'],
      ['?userId=x', 'userId'],
      ['?nftId=-1', 'nftId'],
    ];
    for (const [query, field] of cases) {
      const res = await feed(query);
      expect([query, res.status, res.body.code, res.body.field]).toEqual([
        query,
        400,
        'INVALID_VALUE',
        field,
      ]);
    }
    expect((await feed('?from=1&to=50&kinds=offer,offerAccepted')).status).toBe(200);
  });
});
