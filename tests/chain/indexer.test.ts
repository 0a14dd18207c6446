import { rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buyListing,
  createListing,
  mintFusd,
  mintNft,
  removeListing,
  transferNfts,
} from '../../server/chain/actions';
import type { AccountKey } from '../../server/chain/config';
import { latestSealedHeight } from '../../server/chain/events';
import { INDEXER_STREAM, runIndexerOnce, startIndexer } from '../../server/chain/indexer';
import { type DatabaseHandle, openDb } from '../../server/db';
import { chainCursor, nftPurchases, nfts, saleListings, users } from '../../server/db/schema';
import { flowAddress, newAccount, testConfig } from '../api/support/harness';
import { chainClient, freshBlueprintId, newCollector } from './support';

/** The event indexer against the real emulator: NFTs and their sale listings. */
const client = chainClient();

describe('the chain event indexer', () => {
  let handle: DatabaseHandle;
  let seller: AccountKey;
  let buyer: AccountKey;
  let startHeight: number;

  /** Runs the indexer until it reaches the latest sealed block; answers the events it applied. */
  async function catchUp(): Promise<number> {
    let applied = 0;
    for (;;) {
      const run = await runIndexerOnce(client, handle.db, { startHeight });
      if (!run) return applied;
      applied += run.applied;
    }
  }
  const nft = async (id: string) => (await handle.db.select().from(nfts).where(eq(nfts.id, id)))[0];
  const listing = async (id: string) =>
    (await handle.db.select().from(saleListings).where(eq(saleListings.blockchainListingId, id)))[0];

  beforeAll(async () => {
    handle = await openDb(testConfig('memory://', '/tmp'));
    [seller, buyer] = [await newCollector(client), await newCollector(client)];
    startHeight = await latestSealedHeight(client);
  });
  afterAll(async () => {
    await handle.close();
  });

  it('starts a new stream at the configured FLOW_INDEXER_START_HEIGHT (indexerStartHeight)', async () => {
    const height = (await latestSealedHeight(client)) - 1;
    const configured = Object.create(client, {
      config: { value: { ...client.config, indexerStartHeight: height } },
    }) as typeof client;
    const run = await runIndexerOnce(configured, handle.db, { stream: 'configured-start' });
    expect(run?.from).toBe(height);
  });

  it('follows a mint, a listing, a purchase and a removal, and applies each event once', async () => {
    const blueprintId = freshBlueprintId();
    const minted = await mintNft(client, {
      to: seller.address,
      blueprintId,
      serialNumber: 1,
      metadata: { name: 'Indexed' },
    });
    expect(await catchUp()).toBeGreaterThan(0);
    expect(await nft(minted.nftId)).toMatchObject({
      blueprintId,
      serialNumber: 1,
      owner: seller.address,
      chainOwner: seller.address,
      status: 'parked',
      metadata: { name: 'Indexed' },
    });

    const listed = await createListing(client, seller, { nftId: minted.nftId, price: '12.5' });
    await catchUp();
    expect(await listing(listed.listingResourceId)).toMatchObject({
      seller: seller.address,
      nftId: minted.nftId,
      price: 1250,
      status: 'active',
      purchasedBy: null,
    });
    expect((await nft(minted.nftId))?.status).toBe('forSale');

    await mintFusd(client, buyer.address, '20');
    await buyListing(client, buyer, seller.address, listed.listingResourceId);
    await catchUp();
    expect(await listing(listed.listingResourceId)).toMatchObject({
      status: 'completed',
      purchasedBy: buyer.address,
    });
    expect(await nft(minted.nftId)).toMatchObject({
      owner: buyer.address,
      chainOwner: buyer.address,
      status: 'parked',
    });

    const relisted = await createListing(client, buyer, { nftId: minted.nftId, price: '30' });
    await catchUp();
    expect((await nft(minted.nftId))?.status).toBe('forSale');
    await removeListing(client, buyer, relisted.listingResourceId);
    await catchUp();
    expect(await listing(relisted.listingResourceId)).toMatchObject({ status: 'cancelled', price: 3000 });
    expect(await nft(minted.nftId)).toMatchObject({ owner: buyer.address, status: 'parked' });

    // Running again from the start height applies nothing twice: the cursor is past every event.
    const before = await handle.db.select().from(saleListings);
    expect(await catchUp()).toBe(0);
    expect(await handle.db.select().from(saleListings)).toEqual(before);
    const [cursor] = await handle.db.select().from(chainCursor).where(eq(chainCursor.stream, INDEXER_STREAM));
    expect(cursor!.height).toBeGreaterThanOrEqual(startHeight);

    // A crash after applying but before the cursor moved cannot happen (one transaction); even a
    // replay of every block from the start leaves the same rows.
    const state = async () =>
      [await handle.db.select().from(nfts), await handle.db.select().from(saleListings)].map((rows) =>
        rows.map(({ updatedAt: _u, ...r }) => r),
      );
    const settled = await state();
    await handle.db.update(chainCursor).set({ height: startHeight - 1 });
    await catchUp();
    expect(await state()).toEqual(settled);
  });

  it('records a resale purchase itself, without the buyer’s client', async () => {
    const [sellerB, buyerB] = [await newCollector(client), await newCollector(client)];
    // The buyer has an account here; the purchase names it.
    const account = newAccount();
    const [buyerUser] = await handle.db
      .insert(users)
      .values({
        email: account.email,
        username: account.username,
        passwordHash: 'x',
        firstName: account.firstName,
        walletAddress: buyerB.address,
      })
      .returning();
    const minted = await mintNft(client, {
      to: sellerB.address,
      blueprintId: freshBlueprintId(),
      serialNumber: 1,
      metadata: {},
    });
    const listed = await createListing(client, sellerB, { nftId: minted.nftId, price: '7.25' });
    await mintFusd(client, buyerB.address, '8');
    const bought = await buyListing(client, buyerB, sellerB.address, listed.listingResourceId);
    await catchUp();
    const purchases = await handle.db.select().from(nftPurchases).where(eq(nftPurchases.nftId, minted.nftId));
    expect(purchases).toHaveLength(1);
    expect(purchases[0]).toMatchObject({
      transactionId: bought.id,
      buyerId: buyerUser!.id,
      walletAddress: buyerB.address,
      type: 'saleListing',
      blockchainListingId: listed.listingResourceId,
      amount: 725,
    });
    // The time of the block that sealed it.
    expect(Math.abs(purchases[0]!.purchasedOn.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await listing(listed.listingResourceId)).toMatchObject({
      status: 'completed',
      purchasedBy: buyerB.address,
    });

    // A plain transfer is no purchase; and replaying the blocks records nothing twice.
    const receiver = await newCollector(client);
    await transferNfts(client, buyerB, receiver.address, [minted.nftId]);
    await handle.db.update(chainCursor).set({ height: startHeight - 1 });
    await catchUp();
    expect(await handle.db.select().from(nftPurchases).where(eq(nftPurchases.nftId, minted.nftId))).toEqual(
      purchases,
    );
    expect(await nft(minted.nftId)).toMatchObject({ owner: receiver.address, chainOwner: receiver.address });
  });

  it('repairs a row whose owner disagrees with the chain', async () => {
    const minted = await mintNft(client, {
      to: seller.address,
      blueprintId: freshBlueprintId(),
      serialNumber: 1,
      metadata: {},
    });
    const listed = await createListing(client, seller, { nftId: minted.nftId, price: '3' });
    await catchUp();
    expect(await nft(minted.nftId)).toMatchObject({ owner: seller.address, status: 'forSale' });

    // Written behind the indexer's back (as a replayed purchase record once did).
    const intruder = flowAddress();
    await handle.db.update(nfts).set({ owner: intruder, status: 'parked' }).where(eq(nfts.id, minted.nftId));
    // Any new block makes the indexer run a batch (the emulator makes blocks per transaction).
    await mintFusd(client, buyer.address, '1');
    await catchUp();
    expect(await nft(minted.nftId)).toMatchObject({
      owner: seller.address,
      chainOwner: seller.address,
      status: 'forSale',
    });
    expect(await listing(listed.listingResourceId)).toMatchObject({ status: 'active' });
  });

  it('a new indexer on the same database resumes from the cursor', async () => {
    const dataDir = `/tmp/vitrine-indexer-${process.pid}-${Date.now()}`;
    const config = testConfig('', dataDir);
    const first = await openDb(config);
    const from = await latestSealedHeight(client);
    let indexer = startIndexer(client, first.db, { startHeight: from, intervalMs: 50 });
    const a = await mintNft(client, {
      to: seller.address,
      blueprintId: freshBlueprintId(),
      serialNumber: 1,
      metadata: {},
    });
    await indexer.idle();
    await indexer.idle();
    await indexer.stop();
    const stoppedAt = (await first.db.select().from(chainCursor))[0]!.height;
    await first.close();

    // While no indexer runs, the chain moves on.
    const b = await mintNft(client, {
      to: seller.address,
      blueprintId: freshBlueprintId(),
      serialNumber: 1,
      metadata: {},
    });
    await createListing(client, seller, { nftId: b.nftId, price: '1' });

    const second = await openDb(config);
    const seen: { from: number }[] = [];
    for (;;) {
      const run = await runIndexerOnce(client, second.db, { startHeight: from });
      if (!run) break;
      seen.push(run);
    }
    expect(seen[0]!.from).toBe(stoppedAt + 1);
    const rows = await second.db.select().from(nfts);
    expect(rows.map((r) => r.id).sort()).toEqual([a.nftId, b.nftId].sort());
    expect(rows.find((r) => r.id === b.nftId)?.status).toBe('forSale');

    indexer = startIndexer(client, second.db, { startHeight: from, intervalMs: 50 });
    await indexer.idle();
    await indexer.stop();
    expect(await second.db.select().from(nfts)).toHaveLength(2);
    await second.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
});
