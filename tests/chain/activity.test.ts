import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buyListing,
  createListing,
  mintFusd,
  mintNft,
  removeListing,
  transferNfts,
} from '../../server/chain/actions';
import { latestSealedHeight } from '../../server/chain/events';
import { runIndexerOnce } from '../../server/chain/indexer';
import { type DatabaseHandle, openDb } from '../../server/db';
import { activity, chainCursor } from '../../server/db/schema';
import { testConfig } from '../api/support/harness';
import { chainClient, freshBlueprintId, newCollector } from './support';

/** The activity the event indexer writes against the real emulator: each chain fact once. */
const client = chainClient();

describe('activity from the chain event indexer', () => {
  let handle: DatabaseHandle;
  let startHeight: number;

  async function catchUp() {
    while (await runIndexerOnce(client, handle.db, { startHeight })) {
      // keep catching up
    }
  }
  const entries = async (nftId: string) =>
    (
      await handle.db
        .select()
        .from(activity)
        .where(eq(activity.nftId, nftId))
        .orderBy(asc(activity.occurredAt), asc(activity.key))
    ).map((e) => ({ kind: e.kind, from: e.fromAddress, to: e.toAddress, price: e.price }));

  beforeAll(async () => {
    handle = await openDb(testConfig('memory://', '/tmp'));
    startHeight = await latestSealedHeight(client);
  });
  afterAll(async () => {
    await handle.close();
  });

  it('writes a mint, listings, a resale, a delisting and a transfer once, even when the blocks are read again', async () => {
    const [seller, buyer, friend] = [
      await newCollector(client),
      await newCollector(client),
      await newCollector(client),
    ];
    const minted = await mintNft(client, {
      to: seller.address,
      blueprintId: freshBlueprintId(),
      serialNumber: 1,
      metadata: {},
    });
    const listed = await createListing(client, seller, { nftId: minted.nftId, price: '12.5' });
    await mintFusd(client, buyer.address, '20');
    await buyListing(client, buyer, seller.address, listed.listingResourceId);
    const relisted = await createListing(client, buyer, { nftId: minted.nftId, price: '30' });
    await removeListing(client, buyer, relisted.listingResourceId);
    await transferNfts(client, buyer, friend.address, [minted.nftId]);
    await catchUp();

    const expected = [
      { kind: 'mint', from: null, to: seller.address, price: null },
      { kind: 'listing', from: seller.address, to: null, price: 1250 },
      { kind: 'sale', from: seller.address, to: buyer.address, price: 1250 },
      { kind: 'listing', from: buyer.address, to: null, price: 3000 },
      { kind: 'delisting', from: buyer.address, to: null, price: 3000 },
      { kind: 'transfer', from: buyer.address, to: friend.address, price: null },
    ];
    expect((await entries(minted.nftId)).map((e) => e.kind).sort()).toEqual(
      expected.map((e) => e.kind).sort(),
    );
    expect(await entries(minted.nftId)).toEqual(expect.arrayContaining(expected));

    // Every block read again from the start: nothing is added.
    await handle.db.update(chainCursor).set({ height: startHeight - 1 });
    await catchUp();
    expect(await entries(minted.nftId)).toHaveLength(expected.length);
  });
});
