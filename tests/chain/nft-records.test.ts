import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buyListing, createListing, mintFusd, mintNft, removeListing } from '../../server/chain/actions';
import { nftPurchases } from '../../server/db/schema';
import { approveKyc, provenWallet, register, useTestApp } from '../api/support/harness';
import { chainClient, freshBlueprintId, newCollector } from './support';

/** SPEC §7 sale listing and purchase records, checked against the real emulator. */
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
    expect(again.body.id).toBe(first.body.id);
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
});
