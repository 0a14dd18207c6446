import * as sdk from '@onflow/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getFusdBalance,
  getNftIds,
  mintFusd,
  mintNft,
  registerBlueprintArgs,
  transferFusd,
} from '../../server/chain/actions';
import { bindImports } from '../../server/chain/cadence';
import { eventsOf, FlowClient } from '../../server/chain/client';
import { type AccountKey, emulatorChainConfig } from '../../server/chain/config';
import { deployContracts } from '../../server/chain/deploy';
import { advanceEmulatorClock, type RunningEmulator, startEmulator } from '../../server/chain/emulator';
import { acceptOffer, cancelOffer, getOffer, makeOffer, offerEventType } from '../../server/offers/chain';
import { newCollector } from './support';

/**
 * VitrineOffers on an emulator of its own (its clock is moved forward to test expiry, which the
 * shared emulator's other tests must not see): an offer is made from the buyer's account, accepted
 * by the NFT's holder in one transaction that moves the NFT and splits the FUSD as a resale does
 * (royalty 10 %, platform fee 5 %, the seller the rest), canceled by its buyer, and refused once
 * expired, once the buyer's balance no longer covers it, and for any other NFT than its own.
 */

let emulator: RunningEmulator;
let client: FlowClient;
let creator: AccountKey;

beforeAll(async () => {
  emulator = await startEmulator();
  client = new FlowClient(emulatorChainConfig(emulator.accessNode));
  await deployContracts(client);
  creator = await newCollector(client);
}, 120_000);
afterAll(async () => {
  await emulator?.stop();
});

let serial = 0;
async function nftOf(owner: AccountKey, blueprintId = 4242): Promise<string> {
  const { nftId } = await mintNft(client, {
    to: owner.address,
    blueprintId,
    serialNumber: ++serial,
    metadata: { name: 'Offered' },
    royalties: { [creator.address]: '0.1' },
  });
  return nftId;
}

async function funded(fusd: string): Promise<AccountKey> {
  const account = await newCollector(client);
  await mintFusd(client, account.address, fusd);
  return account;
}

async function offer(buyer: AccountKey, nftId: string, amount: string, expiryDays = 7) {
  const tx = await makeOffer(client, buyer, { nftId, amount, expiryDays });
  const made = eventsOf(tx, offerEventType(client, 'OfferMade'))[0]!;
  return { tx, made, offerId: String(made.offerId) };
}

const balance = async (account: AccountKey | string) =>
  Number(await getFusdBalance(client, typeof account === 'string' ? account : account.address));

describe('VitrineOffers', () => {
  it('accepts: the NFT goes to the buyer and the amount is split to the cent in one transaction', async () => {
    const seller = await newCollector(client);
    const buyer = await funded('100.0');
    const nftId = await nftOf(seller);
    const { made, offerId } = await offer(buyer, nftId, '50.0');
    expect(made).toMatchObject({ buyer: buyer.address, nftId, amount: '50.00000000' });
    expect(await getOffer(client, buyer.address, offerId)).toMatchObject({
      offerId,
      nftId,
      amount: '50.00000000',
      funded: true,
      expired: false,
    });
    // Making an offer moves no money.
    expect(await balance(buyer)).toBe(100);

    const platform = client.config.admin.address;
    const [creatorBefore, platformBefore] = [await balance(creator), await balance(platform)];
    const tx = await acceptOffer(client, seller, buyer.address, offerId);

    expect(eventsOf(tx, offerEventType(client, 'OfferAccepted'))).toEqual([
      {
        offerId,
        buyer: buyer.address,
        seller: seller.address,
        nftId,
        amount: '50.00000000',
        royalty: '5.00000000',
        platformFee: '2.50000000',
        sellerAmount: '42.50000000',
      },
    ]);
    expect(await getNftIds(client, buyer.address)).toEqual([nftId]);
    expect(await getNftIds(client, seller.address)).toEqual([]);
    expect(await balance(buyer)).toBe(50);
    expect(await balance(seller)).toBe(42.5);
    expect((await balance(creator)) - creatorBefore).toBe(5);
    expect((await balance(platform)) - platformBefore).toBe(2.5);
    // The offer is gone: it cannot be accepted twice.
    expect(await getOffer(client, buyer.address, offerId)).toBeNull();
    await expect(acceptOffer(client, seller, buyer.address, offerId)).rejects.toThrow(/no offer/);
  });

  it('takes the platform fee rate the blueprint was registered with', async () => {
    await client.transact('transactions/register_blueprint.cdc', {
      signer: client.config.admin,
      args: registerBlueprintArgs({
        blueprintId: 5151,
        maxEditions: 10,
        price: '1.0',
        royalty: '0.1',
        metadata: { platformFeeRate: '0.20000000' },
      }),
    });
    const seller = await newCollector(client);
    const buyer = await funded('10.0');
    const nftId = await nftOf(seller, 5151);
    const { offerId } = await offer(buyer, nftId, '10.0');
    const tx = await acceptOffer(client, seller, buyer.address, offerId);
    expect(eventsOf(tx, offerEventType(client, 'OfferAccepted'))[0]).toMatchObject({
      royalty: '1.00000000',
      platformFee: '2.00000000',
      sellerAmount: '7.00000000',
    });
    expect(await balance(seller)).toBe(7);
  });

  it('is canceled by its buyer and can then no longer be accepted', async () => {
    const seller = await newCollector(client);
    const buyer = await funded('20.0');
    const nftId = await nftOf(seller);
    const { offerId } = await offer(buyer, nftId, '10.0', 1);

    const tx = await cancelOffer(client, buyer, offerId);
    expect(eventsOf(tx, offerEventType(client, 'OfferCanceled'))).toEqual([
      { offerId, buyer: buyer.address, nftId },
    ]);
    expect(await getOffer(client, buyer.address, offerId)).toBeNull();
    await expect(acceptOffer(client, seller, buyer.address, offerId)).rejects.toThrow(/no offer/);
    expect(await getNftIds(client, seller.address)).toEqual([nftId]);
    expect(await balance(buyer)).toBe(20);
  });

  it('only takes an expiry of 1, 3, 7 or 30 days and an amount of 1 to 10000 FUSD', async () => {
    const buyer = await funded('20.0');
    for (const amount of ['0.99', '10000.01'])
      await expect(makeOffer(client, buyer, { nftId: 1, amount, expiryDays: 7 })).rejects.toThrow(
        /the amount must be 1 to 10000 FUSD/,
      );
    await expect(makeOffer(client, buyer, { nftId: 1, amount: '10.0', expiryDays: 2 })).rejects.toThrow(
      /the expiry must be 1, 3, 7 or 30 days/,
    );
  });

  it('is refused once expired: a 1-day offer, a day later', async () => {
    const seller = await newCollector(client);
    const buyer = await funded('20.0');
    const nftId = await nftOf(seller);
    const { made, offerId } = await offer(buyer, nftId, '10.0', 1);
    const block = (await client.sdk.send([sdk.getBlock(true)]).then(client.sdk.decode)) as {
      timestamp: string;
    };
    const madeAt = Date.parse(block.timestamp) / 1000;
    // expiresAt is the block's time plus the days (to the second).
    expect(Math.abs(Number(made.expiresAt) - (madeAt + 86_400))).toBeLessThan(2);

    await advanceEmulatorClock(emulator.adminApi, 86_400 + 5);
    expect(await getOffer(client, buyer.address, offerId)).toMatchObject({ expired: true, funded: true });
    await expect(acceptOffer(client, seller, buyer.address, offerId)).rejects.toThrow(/has expired/);
    expect(await getNftIds(client, seller.address)).toEqual([nftId]);
    expect(await balance(buyer)).toBe(20);
  });

  it('is refused when the buyer no longer holds the amount ("no longer funded")', async () => {
    const seller = await newCollector(client);
    const buyer = await funded('30.0');
    const nftId = await nftOf(seller);
    const { offerId } = await offer(buyer, nftId, '25.0');
    await transferFusd(client, buyer, seller.address, '10.0');

    expect(await getOffer(client, buyer.address, offerId)).toMatchObject({ funded: false, expired: false });
    await expect(acceptOffer(client, seller, buyer.address, offerId)).rejects.toThrow(/no longer funded/);
    expect(await getNftIds(client, seller.address)).toEqual([nftId]);
    expect(await balance(buyer)).toBe(20);
  });

  it('is refused for any NFT other than the one offered for', async () => {
    const seller = await newCollector(client);
    const buyer = await funded('30.0');
    const wanted = await nftOf(seller);
    const other = await nftOf(seller);
    const { offerId } = await offer(buyer, wanted, '10.0');

    await expect(
      client.transact(handOver(), {
        signer: seller,
        args: (arg, t) => [arg(buyer.address, t.Address), arg(offerId, t.UInt64), arg(other, t.UInt64)],
      }),
    ).rejects.toThrow(new RegExp(`is for NFT ${wanted}, not ${other}`));
    expect((await getNftIds(client, seller.address)).sort()).toEqual([wanted, other].sort());
    expect(await getOffer(client, buyer.address, offerId)).toMatchObject({ funded: true });
  });
});

/** A transaction that hands `nftId` (any NFT of the signer's) to the offer, unlike accept_offer.cdc. */
function handOver(): { code: string } {
  return {
    code: bindImports(
      `
import "FungibleToken"
import "NonFungibleToken"
import "FUSD"
import "VitrineNFT"
import "VitrineOffers"

transaction(buyer: Address, offerId: UInt64, nftId: UInt64) {
    prepare(seller: auth(BorrowValue) &Account) {
        let book = getAccount(buyer).capabilities.borrow<&{VitrineOffers.BookPublic}>(VitrineOffers.BookPublicPath)!
        let collection = seller.storage.borrow<auth(NonFungibleToken.Withdraw) &VitrineNFT.Collection>(from: VitrineNFT.CollectionStoragePath)!
        book.accept(
            offerId: offerId,
            item: <- collection.withdraw(withdrawID: nftId),
            sellerReceiver: seller.capabilities.get<&{FungibleToken.Receiver}>(FUSD.ReceiverPublicPath)
        )
    }
}`,
      client.config.contracts,
    ),
  };
}
