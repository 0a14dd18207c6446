import { beforeAll, describe, expect, it } from 'vitest';
import {
  buyListing,
  createListing,
  getFusdBalance,
  getListing,
  getListingIds,
  LISTING_CUSTOM_ID,
  LISTING_EXPIRY_SECONDS,
  mintFusd,
  mintNft,
  ownsNft,
  removeListing,
} from '../../server/chain/actions';
import { eventsOf } from '../../server/chain/client';
import type { AccountKey } from '../../server/chain/config';
import { chainClient, freshBlueprintId, newCollector } from './support';

const client = chainClient();

describe('NFTStorefrontV2 listings in FUSD', () => {
  let seller: AccountKey;
  let buyer: AccountKey;
  let creator: AccountKey;
  let platform: AccountKey;

  beforeAll(async () => {
    [seller, buyer, creator, platform] = [
      await newCollector(client),
      await newCollector(client),
      await newCollector(client),
      await newCollector(client),
    ];
  });

  /** Mints to the seller; `royalty` is the creator's cut of every resale (0.1 is 10 %). */
  const mintToSeller = async (royalty?: string) =>
    (
      await mintNft(client, {
        to: seller.address,
        blueprintId: freshBlueprintId(),
        serialNumber: 1,
        metadata: {},
        ...(royalty ? { royalties: { [creator.address]: royalty } } : {}),
      })
    ).nftId;

  it('creates a listing that the storefront shows with Vitrine’s fixed terms', async () => {
    const nftId = await mintToSeller('0.1');
    const listed = await createListing(client, seller, {
      nftId,
      price: '20',
      platformAddress: platform.address,
      platformFeeRate: '0.075',
    });

    const [available] = eventsOf(listed, client.eventType('NFTStorefrontV2', 'ListingAvailable'));
    expect(available).toMatchObject({
      storefrontAddress: seller.address,
      listingResourceID: listed.listingResourceId,
      nftID: nftId,
      salePrice: '20.00000000',
      customID: LISTING_CUSTOM_ID,
      commissionAmount: '0.00000000',
      expiry: String(LISTING_EXPIRY_SECONDS),
    });
    expect(await getListingIds(client, seller.address)).toContain(listed.listingResourceId);
    expect(await getListing(client, seller.address, listed.listingResourceId)).toEqual({
      listingResourceID: listed.listingResourceId,
      seller: seller.address,
      nftType: client.eventType('VitrineNFT', 'NFT'),
      nftID: nftId,
      salePaymentVaultType: client.eventType('FUSD', 'Vault'),
      salePrice: '20.00000000',
      saleCuts: [
        { receiver: seller.address, amount: '16.50000000' },
        { receiver: creator.address, amount: '2.00000000' },
        { receiver: platform.address, amount: '1.50000000' },
      ],
      customID: 'vitrine',
      commissionAmount: '0.00000000',
      expiry: '4102444800',
      purchased: false,
    });
    // Listing leaves the NFT with the seller until it is bought.
    expect(await ownsNft(client, seller.address, nftId)).toBe(true);
  });

  it('sells a listing to a buyer paying FUSD: the NFT moves and every cut is paid', async () => {
    const nftId = await mintToSeller('0.1');
    const { listingResourceId } = await createListing(client, seller, {
      nftId,
      price: '10',
      platformAddress: platform.address,
      platformFeeRate: '0.05',
    });
    await mintFusd(client, buyer.address, '25');
    const before = {
      seller: Number(await getFusdBalance(client, seller.address)),
      creator: Number(await getFusdBalance(client, creator.address)),
      platform: Number(await getFusdBalance(client, platform.address)),
    };

    const bought = await buyListing(client, buyer, seller.address, listingResourceId);

    const [completed] = eventsOf(bought, client.eventType('NFTStorefrontV2', 'ListingCompleted'));
    expect(completed).toMatchObject({
      listingResourceID: listingResourceId,
      purchased: true,
      nftID: nftId,
      customID: 'vitrine',
    });
    expect(await ownsNft(client, buyer.address, nftId)).toBe(true);
    expect(await ownsNft(client, seller.address, nftId)).toBe(false);
    expect(await getFusdBalance(client, buyer.address)).toBe('15.00000000');
    expect(Number(await getFusdBalance(client, seller.address)) - before.seller).toBeCloseTo(8.5, 8);
    expect(Number(await getFusdBalance(client, creator.address)) - before.creator).toBeCloseTo(1, 8);
    expect(Number(await getFusdBalance(client, platform.address)) - before.platform).toBeCloseTo(0.5, 8);
    expect(await getListing(client, seller.address, listingResourceId)).toBeNull();
    expect(await getListingIds(client, seller.address)).not.toContain(listingResourceId);
  });

  it('refuses a buyer whose FUSD does not cover the price, and the listing stays', async () => {
    const nftId = await mintToSeller();
    const { listingResourceId } = await createListing(client, seller, { nftId, price: '50' });
    const poor = await newCollector(client);
    await mintFusd(client, poor.address, '49.99');

    await expect(buyListing(client, poor, seller.address, listingResourceId)).rejects.toThrow(
      /amount requested to be withdrawn \(50\.00000000\) is greater than the balance/,
    );
    expect(await ownsNft(client, seller.address, nftId)).toBe(true);
    expect(await getFusdBalance(client, poor.address)).toBe('49.99000000');
    expect((await getListing(client, seller.address, listingResourceId))?.purchased).toBe(false);
  });

  it('removes a listing: it leaves the storefront and can no longer be bought', async () => {
    const nftId = await mintToSeller();
    const { listingResourceId } = await createListing(client, seller, { nftId, price: '3' });
    expect(await getListingIds(client, seller.address)).toContain(listingResourceId);

    const removed = await removeListing(client, seller, listingResourceId);
    const [completed] = eventsOf(removed, client.eventType('NFTStorefrontV2', 'ListingCompleted'));
    expect(completed).toMatchObject({ listingResourceID: listingResourceId, purchased: false });
    expect(await getListing(client, seller.address, listingResourceId)).toBeNull();
    expect(await getListingIds(client, seller.address)).not.toContain(listingResourceId);
    expect(await ownsNft(client, seller.address, nftId)).toBe(true);

    await mintFusd(client, buyer.address, '3');
    await expect(buyListing(client, buyer, seller.address, listingResourceId)).rejects.toThrow(/no listing/);
  });

  it('refuses to list an NFT the seller does not hold', async () => {
    await expect(createListing(client, seller, { nftId: '777777777', price: '1' })).rejects.toThrow(
      /the seller does not hold NFT 777777777/,
    );
  });
});
