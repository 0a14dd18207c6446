import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  buyListing,
  createListing,
  mintFusd,
  mintNft,
  removeListing,
  transferNfts,
} from '../../server/chain/actions';
import type { AccountKey } from '../../server/chain/config';
import { nftPurchases, nfts, saleListings } from '../../server/db/schema';
import { approveKyc, provenWallet, register, type TestApi, useTestApp } from '../api/support/harness';
import { chainClient, freshBlueprintId, newCollector } from './support';

/** The sale listing and purchase record routes, checked against the real emulator. */
const client = chainClient();

describe('recording listings and purchases', () => {
  const t = useTestApp('pglite', {}, { chainClient: client });

  it('records a listing, its purchase, and a cancelled listing', async () => {
    const [seller, buyer] = [await newCollector(client), await newCollector(client)];
    const sellerUser = await register(t, { ...(await provenWallet(t, seller.address)), cid: 'dev-wallet' });
    await approveKyc(t, sellerUser.id);
    const buyerUser = await register(t, { ...(await provenWallet(t, buyer.address)), cid: 'dev-wallet' });
    // The buyer resells later: selling needs identity verification.
    await approveKyc(t, buyerUser.id);
    const blueprintId = freshBlueprintId();
    const { nftId } = await mintNft(client, {
      to: seller.address,
      blueprintId,
      serialNumber: 1,
      metadata: {},
    });
    const listed = await createListing(client, seller, { nftId, price: '9.99' });

    const recorded = await t.request('POST', '/api/nfts/sale-listings/actions/record', {
      token: sellerUser.authToken,
      body: {
        blockchainListingId: listed.listingResourceId,
        flowBlueprintId: String(blueprintId),
        nftSeriesNumber: '1',
        listedOn: new Date().toISOString(),
        walletAddress: seller.address,
      },
    });
    expect(recorded.status).toBe(201);
    expect(recorded.body).toMatchObject({ price: 999, status: 'active', nft: { id: nftId } });
    expect((await t.request('GET', `/api/nfts/${nftId}`)).body).toMatchObject({
      status: 'forSale',
      owner: { id: sellerUser.id },
    });
    const wrongEdition = await t.request('POST', '/api/nfts/sale-listings/actions/record', {
      token: sellerUser.authToken,
      body: {
        ...recorded.body,
        blockchainListingId: listed.listingResourceId,
        flowBlueprintId: '1',
        nftSeriesNumber: '1',
        walletAddress: seller.address,
      },
    });
    expect(wrongEdition.status).toBe(400);

    await mintFusd(client, buyer.address, '10');
    const bought = await buyListing(client, buyer, seller.address, listed.listingResourceId);
    const purchase = {
      transactionId: bought.id,
      walletAddress: buyer.address,
      flowBlueprintId: String(blueprintId),
      nftSeriesNumber: '1',
      // Named a direct purchase by the client: the completed listing on chain makes it a resale.
      type: 'directPurchase',
      blockchainListingId: listed.listingResourceId,
    };
    const first = await t.request('POST', '/api/nfts/purchases/actions/record', {
      token: buyerUser.authToken,
      body: purchase,
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ amount: 999, nft: { id: nftId } });
    const [stored] = await t.database.db
      .select()
      .from(nftPurchases)
      .where(eq(nftPurchases.transactionId, bought.id));
    expect(stored?.type).toBe('saleListing');
    const again = await t.request('POST', '/api/nfts/purchases/actions/record', {
      token: buyerUser.authToken,
      body: purchase,
    });
    // A repeat answers the first record, unchanged, with 200.
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await t.request('GET', `/api/nfts/sale-listings/${recorded.body.id}`)).body).toMatchObject({
      status: 'completed',
      purchasedBy: buyer.address,
    });
    expect((await t.request('GET', `/api/nfts/${nftId}`)).body).toMatchObject({
      status: 'parked',
      owner: { id: buyerUser.id },
    });

    const relisted = await createListing(client, buyer, { nftId, price: '5' });
    const body = {
      blockchainListingId: relisted.listingResourceId,
      flowBlueprintId: String(blueprintId),
      nftSeriesNumber: '1',
      walletAddress: buyer.address,
    };
    expect(
      (
        await t.request('POST', '/api/nfts/sale-listings/actions/record', {
          token: buyerUser.authToken,
          body,
        })
      ).status,
    ).toBe(201);
    const cancel = () =>
      t.request('POST', '/api/nfts/sale-listings/actions/cancel', {
        token: buyerUser.authToken,
        body: { blockchainListingId: relisted.listingResourceId },
      });
    expect((await cancel()).status).toBe(400); // still on chain
    await removeListing(client, buyer, relisted.listingResourceId);
    const cancelled = await cancel();
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await t.request('GET', `/api/nfts/${nftId}`)).body.status).toBe('parked');
  });

  /** A collector with an account whose wallet is proven and linked, and approved KYC (to sell). */
  async function collector(app: TestApi) {
    const account = await newCollector(client);
    const user = await register(app, { ...(await provenWallet(app, account.address)), cid: 'dev-wallet' });
    await approveKyc(app, user.id);
    return { account, user };
  }

  /** A fresh NFT listed by `seller` at `price`, and the body that records a purchase of it. */
  async function listedNft(seller: AccountKey, price: string) {
    const blueprintId = freshBlueprintId();
    const { nftId } = await mintNft(client, {
      to: seller.address,
      blueprintId,
      serialNumber: 1,
      metadata: {},
    });
    const listed = await createListing(client, seller, { nftId, price });
    return { nftId, blueprintId, listingId: listed.listingResourceId };
  }

  const recordPurchase = (token: string, body: Record<string, unknown>) =>
    t.request('POST', '/api/nfts/purchases/actions/record', { token, body });
  const nftRow = async (id: string) => (await t.database.db.select().from(nfts).where(eq(nfts.id, id)))[0];
  const listingRow = async (id: string) =>
    (await t.database.db.select().from(saleListings).where(eq(saleListings.blockchainListingId, id)))[0];

  it('answers an invented transaction id with 400 TRANSACTION at once', async () => {
    const { account, user } = await collector(t);
    // A real edition, so that only the transaction id is invented.
    const blueprintId = freshBlueprintId();
    await mintNft(client, { to: account.address, blueprintId, serialNumber: 1, metadata: {} });
    const started = Date.now();
    const res = await recordPurchase(user.authToken, {
      transactionId: randomBytes(32).toString('hex'),
      walletAddress: account.address,
      flowBlueprintId: String(blueprintId),
      nftSeriesNumber: '1',
      type: 'saleListing',
      blockchainListingId: '1',
    });
    const elapsed = Date.now() - started;
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'TRANSACTION', field: 'transactionId' });
    expect(elapsed).toBeLessThan(5000);
  }, 15_000);

  it('refuses a plain transfer posted as a purchase, whatever type the client names', async () => {
    const [{ account: sender }, { account: receiver, user }] = [await collector(t), await collector(t)];
    const blueprintId = freshBlueprintId();
    const { nftId } = await mintNft(client, {
      to: sender.address,
      blueprintId,
      serialNumber: 1,
      metadata: {},
    });
    const sent = await transferNfts(client, sender, receiver.address, [nftId]);
    for (const type of ['directPurchase', 'saleListing', undefined]) {
      const res = await recordPurchase(user.authToken, {
        transactionId: sent.id,
        walletAddress: receiver.address,
        flowBlueprintId: String(blueprintId),
        nftSeriesNumber: '1',
        ...(type ? { type } : {}),
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'TRANSACTION', field: 'transactionId' });
      expect(res.body.message).toMatch(/not a purchase/);
    }
    expect(
      await t.database.db.select().from(nftPurchases).where(eq(nftPurchases.transactionId, sent.id)),
    ).toEqual([]);
    expect(await t.database.db.select().from(nftPurchases).where(eq(nftPurchases.nftId, nftId))).toEqual([]);
  });

  /**
   * A buys the NFT of `seller`'s listing (T1), then sends it to B, who lists it and records the
   * listing; `recordT1First` says whether A recorded T1 before sending the NFT on.
   */
  async function boughtThenPassedOn(recordT1First: boolean) {
    const [{ account: seller }, { account: a, user: userA }, { account: b, user: userB }] = [
      await collector(t),
      await collector(t),
      await collector(t),
    ];
    const { nftId, blueprintId, listingId } = await listedNft(seller, '4');
    await mintFusd(client, a.address, '4');
    const t1 = await buyListing(client, a, seller.address, listingId);
    const body = {
      transactionId: t1.id,
      walletAddress: a.address,
      flowBlueprintId: String(blueprintId),
      nftSeriesNumber: '1',
      type: 'saleListing',
      blockchainListingId: listingId,
    };
    const first = recordT1First ? await recordPurchase(userA.authToken, body) : null;
    await transferNfts(client, a, b.address, [nftId]);
    const bListing = await createListing(client, b, { nftId, price: '8' });
    const recordedListing = await t.request('POST', '/api/nfts/sale-listings/actions/record', {
      token: userB.authToken,
      body: {
        blockchainListingId: bListing.listingResourceId,
        flowBlueprintId: String(blueprintId),
        nftSeriesNumber: '1',
        walletAddress: b.address,
      },
    });
    expect(recordedListing.status).toBe(201);
    /** The rows still say what the chain says: B holds the NFT and B's listing is active. */
    const unchanged = async () => {
      expect(await nftRow(nftId)).toMatchObject({ owner: b.address, status: 'forSale' });
      expect(await listingRow(bListing.listingResourceId)).toMatchObject({
        status: 'active',
        seller: b.address,
      });
      expect((await t.request('GET', `/api/nfts/${nftId}`)).body).toMatchObject({
        owner: { id: userB.id },
        activeSaleListing: { blockchainListingId: bListing.listingResourceId },
      });
    };
    await unchanged();
    return { t1, body, first, userA, b, nftId, listingId, unchanged };
  }

  it('answers a replayed purchase with its first record and changes nothing', async () => {
    const { t1, body, first, userA, unchanged } = await boughtThenPassedOn(true);
    expect(first?.status).toBe(201);
    const replay = await recordPurchase(userA.authToken, body);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first!.body);
    await unchanged();
    // Naming another type changes nothing either.
    const again = await recordPurchase(userA.authToken, { ...body, type: 'directPurchase' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first!.body);
    await unchanged();
    expect(
      await t.database.db.select().from(nftPurchases).where(eq(nftPurchases.transactionId, t1.id)),
    ).toHaveLength(1);
  });

  it('records a sale the buyer no longer holds without moving the NFT', async () => {
    const { t1, body, userA, b, nftId, listingId, unchanged } = await boughtThenPassedOn(false);
    // The sale is real, so it is recorded; the NFT is not in A's wallet now, so it stays B's.
    const late = await recordPurchase(userA.authToken, body);
    expect(late.status).toBe(201);
    expect(late.body).toMatchObject({
      transactionId: t1.id,
      nft: { id: nftId },
      amount: 400,
      type: 'saleListing',
      blockchainListingId: listingId,
    });
    await unchanged();
    expect(await nftRow(nftId)).toMatchObject({ chainOwner: b.address });
    const replay = await recordPurchase(userA.authToken, body);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(late.body);
    await unchanged();
  });

  it('moves ownership on a recorded purchase only to the wallet the NFT went to', async () => {
    const [{ account: seller }, { account: buyer, user: buyerUser }, { account: otherWallet, user: other }] =
      [await collector(t), await collector(t), await collector(t)];
    const { nftId, blueprintId, listingId } = await listedNft(seller, '2.5');
    await mintFusd(client, buyer.address, '3');
    const bought = await buyListing(client, buyer, seller.address, listingId);
    const body = {
      transactionId: bought.id,
      flowBlueprintId: String(blueprintId),
      nftSeriesNumber: '1',
      blockchainListingId: listingId,
    };
    // Someone else claiming the purchase for their own wallet: the NFT did not go there.
    const claimed = await recordPurchase(other.authToken, { ...body, walletAddress: otherWallet.address });
    expect(claimed.status).toBe(400);
    expect(claimed.body).toMatchObject({ code: 'TRANSACTION', field: 'transactionId' });
    // Another listing than the one the transaction completed.
    const wrongListing = await recordPurchase(buyerUser.authToken, {
      ...body,
      walletAddress: buyer.address,
      blockchainListingId: String(BigInt(listingId) + 1000n),
    });
    expect(wrongListing.status).toBe(400);

    // Without `type` (ignored anyway) the buyer records it: the NFT is in the wallet, so it moves.
    const recorded = await recordPurchase(buyerUser.authToken, { ...body, walletAddress: buyer.address });
    expect(recorded.status).toBe(201);
    expect(recorded.body).toMatchObject({ amount: 250, type: 'saleListing' });
    expect(await nftRow(nftId)).toMatchObject({ owner: buyer.address, chainOwner: buyer.address });
    const [stored] = await t.database.db
      .select()
      .from(nftPurchases)
      .where(eq(nftPurchases.transactionId, bought.id));
    expect(stored).toMatchObject({ buyerId: buyerUser.id, walletAddress: buyer.address });
  });

  it('refuses to record a listing whose NFT left the seller’s wallet', async () => {
    const [{ account: seller, user: sellerUser }, { account: receiver }] = [
      await collector(t),
      await collector(t),
    ];
    const { nftId, blueprintId, listingId } = await listedNft(seller, '3');
    // The listing stays in the storefront after the NFT is sent away (a ghost listing).
    await transferNfts(client, seller, receiver.address, [nftId]);
    const res = await t.request('POST', '/api/nfts/sale-listings/actions/record', {
      token: sellerUser.authToken,
      body: {
        blockchainListingId: listingId,
        flowBlueprintId: String(blueprintId),
        nftSeriesNumber: '1',
        walletAddress: seller.address,
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_VALUE', field: 'blockchainListingId' });
    expect(await nftRow(nftId)).toBeUndefined();
  });
});
