import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowClient } from '../../server/chain/client';
import { emulatorChainConfig } from '../../server/chain/config';
import {
  activity,
  nftPurchases,
  nfts,
  notifications,
  offers,
  outbox,
  saleListings,
} from '../../server/db/schema';
import { expireOffers } from '../../server/offers/jobs';
import { applyOfferEvent, type OfferEvent, offerEventTypes } from '../../server/offers/record';
import { storefrontSales } from '../../server/sales/ledger';
import { databases, provenWallet, register, type TestApi, useTestApp } from './support/harness';
import { blueprint, creator } from './support/sales';

/**
 * Offers on the server: VitrineOffers events (as the record route and the indexer both apply them)
 * make, cancel and accept an offer once however often they are read, with the owner told of a new
 * offer and the buyer of an accepted or expired one; an accepted offer is a resale (an nft_purchase
 * of type offer) that ends the seller's listing. GET offers filters, pages and validates; the record
 * route's answers for transactions the chain has not sealed or does not know come from a stand-in
 * access node (real transactions: tests/chain/offer-records.test.ts).
 */
const txId = () => randomBytes(32).toString('hex');
const ids = { pending: txId(), unknown: txId() };

let node: Server;
beforeAll(async () => {
  node = createServer((req, res) => {
    const id = /^\/v1\/transaction_results\/([0-9a-f]{64})/.exec(req.url ?? '')?.[1];
    res.writeHead(id === ids.pending ? 200 : 404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        id === ids.pending
          ? {
              block_id: '',
              collection_id: '',
              execution: 'Pending',
              status: 'Pending',
              status_code: 0,
              error_message: '',
              computation_used: '0',
              events: [],
            }
          : { code: 404, message: 'transaction not found' },
      ),
    );
  });
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise((resolve) => node.close(resolve)));

const DAY_MS = 86_400_000;

describe.each(databases)('offers on %s', (database) => {
  let client: FlowClient;
  const t: TestApi = useTestApp(
    database,
    {},
    {
      get chainClient() {
        client = new FlowClient(
          emulatorChainConfig(`http://127.0.0.1:${(node.address() as AddressInfo).port}`),
        );
        return client;
      },
    },
  );
  const db = () => t.database.db;
  let chainOfferIds = Math.floor(Math.random() * 1e9);

  async function collector() {
    const wallet = await provenWallet(t);
    const user = await register(t, { ...wallet, cid: 'dev-wallet' });
    return { ...user, wallet: wallet.walletAddress };
  }

  /** An NFT of a new item held by `owner`. */
  async function nftOf(owner: string) {
    const shop = await creator(t);
    const item = await blueprint(t, shop.storefront.id);
    const id = `${Date.now()}${randomBytes(2).readUInt16BE()}`;
    await db()
      .insert(nfts)
      .values({ id, blueprintId: item.flowBlueprintId, serialNumber: 3, owner, chainOwner: owner });
    return { id, item, shop };
  }

  const apply = (
    type: keyof ReturnType<typeof offerEventTypes>,
    data: OfferEvent['data'],
    transactionId = txId(),
  ) =>
    db().transaction((tx) =>
      applyOfferEvent(
        tx,
        client,
        { type: offerEventTypes(client)[type], transactionId, data },
        t.clock.now(),
        t.clock.now(),
        t.config,
      ),
    );

  async function made(buyer: string, nftId: string, amount = '40.0', days = 7) {
    const offerId = String(++chainOfferIds);
    const expiresAt = (t.clock.now().getTime() + days * DAY_MS) / 1000;
    const transactionId = txId();
    const data = { offerId, buyer, nftId, amount, expiresAt: expiresAt.toFixed(8) };
    const applied = await apply('made', data, transactionId);
    return { ...applied, offerId, transactionId, data };
  }

  const noticesOf = (userId: string) =>
    db().select().from(notifications).where(eq(notifications.userId, userId));
  const activityOf = (nftId: string) =>
    db().select().from(activity).where(eq(activity.nftId, nftId)).orderBy(activity.kind);
  const emailsTo = (email: string) => db().select().from(outbox).where(eq(outbox.to, email));

  it('records a made offer once, telling its owner once in the app and by email', async () => {
    const [owner, buyer] = [await collector(), await collector()];
    const { id: nftId, item } = await nftOf(owner.wallet);
    const first = await made(buyer.wallet, nftId);
    expect(first.changed).toBe(true);
    expect(first.offer).toMatchObject({
      status: 'open',
      amount: 4000,
      buyerId: buyer.id,
      ownerId: owner.id,
      ownerAddress: owner.wallet,
      nftId,
    });
    // The same event read again (the indexer after the record route): nothing changes.
    const again = await apply('made', first.data, first.transactionId);
    expect([again.changed, again.offer?.id]).toEqual([false, first.offer!.id]);
    expect(await db().select().from(offers).where(eq(offers.nftId, nftId))).toHaveLength(1);

    expect(await noticesOf(owner.id)).toMatchObject([
      { kind: 'offerMade', subject: first.offer!.id, title: item.title, serialNumber: 3, amount: 4000 },
    ]);
    const emails = await emailsTo(owner.email);
    expect(emails.map((e) => e.subject)).toEqual([`New offer: ${item.title} #03`]);
    expect(await noticesOf(buyer.id)).toEqual([]);
    // The activity feed has the offer once, from the buyer to the owner, at its amount.
    expect(await activityOf(nftId)).toMatchObject([
      {
        kind: 'offer',
        price: 4000,
        fromUserId: buyer.id,
        toUserId: owner.id,
        transactionId: first.transactionId,
      },
    ]);
  });

  it('accepts once: a resale of type offer that ends the seller’s listing and tells the buyer', async () => {
    const [owner, buyer] = [await collector(), await collector()];
    const { id: nftId, item, shop } = await nftOf(owner.wallet);
    await db()
      .insert(saleListings)
      .values({ blockchainListingId: `${nftId}9`, seller: owner.wallet, nftId, price: 9000 });
    const { offerId, offer } = await made(buyer.wallet, nftId, '40.0');
    const accept = { offerId, buyer: buyer.wallet, seller: owner.wallet, nftId, amount: '40.00000000' };
    const transactionId = txId();
    const applied = await apply('accepted', accept, transactionId);
    expect(applied.changed).toBe(true);
    expect(applied.offer).toMatchObject({
      id: offer!.id,
      status: 'accepted',
      closingTransactionId: transactionId,
    });

    expect(
      await db().select().from(nftPurchases).where(eq(nftPurchases.transactionId, transactionId)),
    ).toMatchObject([{ type: 'offer', amount: 4000, nftId, walletAddress: buyer.wallet, buyerId: buyer.id }]);
    expect(await db().select().from(saleListings).where(eq(saleListings.nftId, nftId))).toMatchObject([
      { status: 'cancelled' },
    ]);
    // A resale: not a sale of new editions in the creator's ledger.
    expect(await storefrontSales(db(), shop.storefront.id)).toEqual([]);
    expect(await noticesOf(buyer.id)).toMatchObject([
      { kind: 'offerAccepted', subject: offer!.id, amount: 4000 },
    ]);
    expect((await emailsTo(buyer.email)).map((e) => e.subject)).toEqual([
      `Offer accepted: ${item.title} #03`,
    ]);

    const again = await apply('accepted', accept, transactionId);
    expect(again.changed).toBe(false);
    expect(await db().select().from(nftPurchases).where(eq(nftPurchases.nftId, nftId))).toHaveLength(1);
    expect(await noticesOf(buyer.id)).toHaveLength(1);
    // In the activity feed (by kind): the offer and one accepted offer (not also a sale), however often read.
    expect((await activityOf(nftId)).map((a) => [a.kind, a.price, a.fromUserId, a.toUserId])).toEqual([
      ['offer', 4000, buyer.id, owner.id],
      ['offerAccepted', 4000, owner.id, buyer.id],
    ]);
    // Closed offers are not canceled or expired afterwards.
    await apply('canceled', { offerId, buyer: buyer.wallet, nftId });
    t.clock.advance(8 * DAY_MS);
    await expireOffers(db(), t.clock.now(), t.config);
    expect((await db().select().from(offers).where(eq(offers.id, offer!.id)))[0]!.status).toBe('accepted');
  });

  it('cancels once', async () => {
    const [owner, buyer] = [await collector(), await collector()];
    const { id: nftId } = await nftOf(owner.wallet);
    const { offerId, offer } = await made(buyer.wallet, nftId);
    const transactionId = txId();
    const data = { offerId, buyer: buyer.wallet, nftId };
    expect((await apply('canceled', data, transactionId)).offer).toMatchObject({
      id: offer!.id,
      status: 'canceled',
      closingTransactionId: transactionId,
    });
    expect((await apply('canceled', data, transactionId)).changed).toBe(false);
    expect((await apply('canceled', data)).changed).toBe(false);
  });

  it('expires standing offers after their expiry and tells each buyer once', async () => {
    t.clock.freeze();
    const [owner, buyer] = [await collector(), await collector()];
    const { id: nftId, item } = await nftOf(owner.wallet);
    const short = await made(buyer.wallet, nftId, '10.0', 1);
    const long = await made(buyer.wallet, nftId, '20.0', 3);
    const status = async (id: string) =>
      (await db().select().from(offers).where(eq(offers.id, id)))[0]!.status;

    t.clock.advance(DAY_MS - 1000);
    await expireOffers(db(), t.clock.now(), t.config);
    expect(await status(short.offer!.id)).toBe('open');
    t.clock.advance(1000);
    await expireOffers(db(), t.clock.now(), t.config);
    expect([await status(short.offer!.id), await status(long.offer!.id)]).toEqual(['expired', 'open']);
    await expireOffers(db(), t.clock.now(), t.config);
    expect(await noticesOf(buyer.id)).toMatchObject([
      { kind: 'offerExpired', subject: short.offer!.id, amount: 1000 },
    ]);
    expect((await emailsTo(buyer.email)).map((e) => e.subject)).toEqual([`Offer expired: ${item.title} #03`]);
    t.clock.reset();
  });

  it('lists offers newest first by NFT, buyer, owner and status, paged by from/to', async () => {
    t.clock.freeze();
    const [owner, buyer, other] = [await collector(), await collector(), await collector()];
    const { id: nftId } = await nftOf(owner.wallet);
    const { id: otherNft } = await nftOf(other.wallet);
    const a = await made(buyer.wallet, nftId, '10.0');
    t.clock.advance(1000);
    const b = await made(buyer.wallet, otherNft, '11.0');
    t.clock.advance(1000);
    const c = await made(other.wallet, nftId, '12.0');
    await apply('canceled', { offerId: a.offerId, buyer: buyer.wallet, nftId });
    const list = async (query: string) => {
      const res = await t.request('GET', `/api/offers${query}`);
      expect(res.status).toBe(200);
      return [res.body.results.map((r: { id: string }) => r.id), res.body.total];
    };
    const id = (x: { offer?: { id: string } }) => x.offer!.id;
    expect(await list(`?nftId=${nftId}`)).toEqual([[id(c), id(a)], 2]);
    expect(await list(`?buyerId=${buyer.id}`)).toEqual([[id(b), id(a)], 2]);
    expect(await list(`?ownerId=${owner.id}`)).toEqual([[id(c), id(a)], 2]);
    expect(await list(`?ownerId=${owner.id}&status=open`)).toEqual([[id(c)], 1]);
    expect(await list(`?buyerId=${buyer.id}&status=canceled,expired`)).toEqual([[id(a)], 1]);
    expect(await list(`?buyerId=${buyer.id}&from=2&to=2`)).toEqual([[id(a)], 2]);

    const res = await t.request('GET', `/api/offers?nftId=${nftId}&to=1`);
    expect(res.body.results[0]).toEqual({
      id: id(c),
      chainOfferId: c.offerId,
      nft: expect.objectContaining({ id: nftId, seriesNumber: 3 }),
      buyer: {
        id: other.id,
        username: other.user.username ?? null,
        avatarUrl: null,
        walletAddress: other.wallet,
      },
      owner: expect.objectContaining({ id: owner.id, walletAddress: owner.wallet }),
      amount: 1200,
      status: 'open',
      expiresAt: new Date(t.clock.now().getTime() + 7 * DAY_MS).toISOString(),
      createdAt: t.clock.now().toISOString(),
      closedAt: null,
      transactionId: c.transactionId,
      closingTransactionId: null,
    });

    // The NFT changes hands: its standing offer is to the new holder now; the closed one stays.
    const holder = await collector();
    await db().update(nfts).set({ owner: holder.wallet }).where(eq(nfts.id, nftId));
    expect(await list(`?ownerId=${holder.id}`)).toEqual([[id(c)], 1]);
    expect(await list(`?ownerId=${owner.id}`)).toEqual([[id(a)], 1]);
    const moved = await t.request('GET', `/api/offers?nftId=${nftId}&status=open`);
    expect(moved.body.results[0].owner).toMatchObject({ id: holder.id, walletAddress: holder.wallet });

    for (const bad of [
      '?from=0',
      '?from=2&to=1',
      '?from=1&to=51',
      '?buyerId=x',
      '?status=sold',
      '?nftId=abc',
    ]) {
      const answer = await t.request('GET', `/api/offers${bad}`);
      expect([bad, answer.status, answer.body.code]).toEqual([bad, 400, 'INVALID_VALUE']);
    }
    t.clock.reset();
  });

  it('records a reported transaction only as the chain says: pending, unknown, known', async () => {
    const buyer = await collector();
    const record = (transactionId: string) =>
      t.request('POST', '/api/offers/actions/record', { token: buyer.authToken, body: { transactionId } });
    const visitor = await t.request('POST', '/api/offers/actions/record', {
      body: { transactionId: ids.pending },
    });
    expect(visitor.status).toBe(401);
    expect((await record('nope')).body).toMatchObject({ code: 'INVALID_VALUE', field: 'transactionId' });
    const pending = await record(ids.pending);
    expect([pending.status, pending.body]).toEqual([202, { status: 'pending', transactionId: ids.pending }]);
    const unknown = await record(ids.unknown);
    expect([unknown.status, unknown.body.code]).toEqual([400, 'TRANSACTION']);

    // Recorded before (here: by the indexer): answered as it stands, without asking the chain.
    const owner = await collector();
    const { id: nftId } = await nftOf(owner.wallet);
    const { offer, transactionId } = await made(buyer.wallet, nftId);
    const known = await record(transactionId);
    expect([known.status, known.body.id, known.body.status]).toEqual([200, offer!.id, 'open']);
    expect(
      await db()
        .select()
        .from(offers)
        .where(and(eq(offers.nftId, nftId), eq(offers.buyerAddress, buyer.wallet))),
    ).toHaveLength(1);
  });

  it('names an NFT the database does not know by its id', async () => {
    const buyer = await collector();
    const { offer } = await made(buyer.wallet, '777000111', '5.0');
    expect(offer).toMatchObject({ ownerAddress: '', ownerId: null });
    const res = await t.request('GET', '/api/offers?nftId=777000111');
    expect(res.body.results[0].nft).toEqual({
      id: '777000111',
      blueprintId: '',
      title: 'NFT 777000111',
      imageUrl: null,
      seriesNumber: 0,
    });
  });
});
