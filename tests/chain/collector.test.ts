import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkCollection,
  getEditionToken,
  getFusdBalance,
  getNftIds,
  getNfts,
  mintFusd,
  mintNft,
  ownsNft,
  setupAccount,
  transferFusd,
  transferNfts,
} from '../../server/chain/actions';
import { eventsOf, FlowTransactionError } from '../../server/chain/client';
import type { AccountKey } from '../../server/chain/config';
import { chainClient, freshBlueprintId, newCollector } from './support';

const client = chainClient();

describe('account setup', () => {
  it('creates the collection and the FUSD vault, and running it again changes nothing', async () => {
    const account = await newCollector(client, { setup: false });
    expect(await checkCollection(client, account.address)).toEqual({
      collection: false,
      fusdVault: false,
      ready: false,
    });

    await setupAccount(client, account);
    expect(await checkCollection(client, account.address)).toEqual({
      collection: true,
      fusdVault: true,
      ready: true,
    });

    const again = await setupAccount(client, account);
    expect(again.events.filter((e) => e.type.startsWith('flow.StorageCapabilityControllerIssued'))).toEqual(
      [],
    );
    expect(await checkCollection(client, account.address)).toEqual({
      collection: true,
      fusdVault: true,
      ready: true,
    });
    expect(await getNftIds(client, account.address)).toEqual([]);
    expect(await getFusdBalance(client, account.address)).toBe('0.00000000');
  });
});

describe('minting', () => {
  let alice: AccountKey;
  let bob: AccountKey;
  beforeAll(async () => {
    alice = await newCollector(client);
    bob = await newCollector(client);
  });

  it('mints to a collector: the NFT data script shows blueprintId, serialNumber and metadata', async () => {
    const blueprintId = freshBlueprintId();
    const metadata = {
      name: 'Sunrise over Lisbon',
      image: 'https://cdn.example/sunrise.png',
      editionSize: '10',
    };
    const minted = await mintNft(client, { to: alice.address, blueprintId, serialNumber: 3, metadata });

    expect(minted.nftId).toMatch(/^\d+$/);
    const [event] = eventsOf(minted, client.eventType('VitrineNFT', 'Minted'));
    expect(event).toEqual({
      id: minted.nftId,
      blueprintId: String(blueprintId),
      serialNumber: '3',
      to: alice.address,
    });
    const deposited = eventsOf(minted, client.eventType('NonFungibleToken', 'Deposited'));
    expect(deposited).toMatchObject([
      { id: minted.nftId, to: alice.address, type: client.eventType('VitrineNFT', 'NFT') },
    ]);

    expect(await getNfts(client, alice.address, [minted.nftId])).toEqual([
      {
        id: minted.nftId,
        blueprintId: String(blueprintId),
        serialNumber: '3',
        metadata,
        owner: alice.address,
      },
    ]);
    expect(await getNftIds(client, alice.address)).toContain(minted.nftId);
    expect(await getEditionToken(client, blueprintId, 3)).toBe(minted.nftId);
    expect(await getEditionToken(client, blueprintId, 4)).toBeNull();
  });

  it('answers the owner check true for the owner and false for anyone else', async () => {
    const { nftId } = await mintNft(client, {
      to: alice.address,
      blueprintId: freshBlueprintId(),
      serialNumber: 1,
      metadata: {},
    });
    expect(await ownsNft(client, alice.address, nftId)).toBe(true);
    expect(await ownsNft(client, bob.address, nftId)).toBe(false);
    expect(await ownsNft(client, alice.address, '999999999')).toBe(false);
  });

  it('never mints an edition twice', async () => {
    const blueprintId = freshBlueprintId();
    await mintNft(client, { to: alice.address, blueprintId, serialNumber: 1, metadata: {} });
    const error = await mintNft(client, {
      to: bob.address,
      blueprintId,
      serialNumber: 1,
      metadata: {},
    }).catch((e) => e);
    expect(error).toBeInstanceOf(FlowTransactionError);
    expect(error.message).toMatch(/edition 1 of blueprint \d+ is already minted/);
    expect(await getNftIds(client, bob.address)).toEqual([]);
  });

  it('refuses to mint to an account without a collection, saying so', async () => {
    const stranger = await newCollector(client, { setup: false });
    await expect(
      mintNft(client, {
        to: stranger.address,
        blueprintId: freshBlueprintId(),
        serialNumber: 1,
        metadata: {},
      }),
    ).rejects.toThrow(/has no VitrineNFT collection \(run account setup first\)/);
  });

  it('moves several NFTs in one batch transfer', async () => {
    const blueprintId = freshBlueprintId();
    const ids: string[] = [];
    for (const serialNumber of [1, 2, 3]) {
      ids.push((await mintNft(client, { to: alice.address, blueprintId, serialNumber, metadata: {} })).nftId);
    }
    const tx = await transferNfts(client, alice, bob.address, ids.slice(0, 2));
    expect(eventsOf(tx, client.eventType('NonFungibleToken', 'Deposited')).map((e) => e.id)).toEqual(
      ids.slice(0, 2),
    );

    const bobs = await getNfts(client, bob.address, ids);
    expect(bobs.map((n) => [n.id, n.serialNumber])).toEqual([
      [ids[0], '1'],
      [ids[1], '2'],
    ]);
    expect(await ownsNft(client, alice.address, ids[0]!)).toBe(false);
    expect(await ownsNft(client, alice.address, ids[2]!)).toBe(true);
  });

  it('transfers all or nothing: one id the sender lacks reverts the batch', async () => {
    const { nftId } = await mintNft(client, {
      to: alice.address,
      blueprintId: freshBlueprintId(),
      serialNumber: 1,
      metadata: {},
    });
    await expect(transferNfts(client, alice, bob.address, [nftId, '888888888'])).rejects.toThrow(
      /holds no NFT with id 888888888/,
    );
    expect(await ownsNft(client, alice.address, nftId)).toBe(true);
  });
});

describe('FUSD', () => {
  it('mints, transfers and reports balances', async () => {
    const alice = await newCollector(client);
    const bob = await newCollector(client);
    await mintFusd(client, alice.address, '150.25');
    expect(await getFusdBalance(client, alice.address)).toBe('150.25000000');

    const tx = await transferFusd(client, alice, bob.address, 40);
    expect(eventsOf(tx, client.eventType('FungibleToken', 'Deposited'))).toMatchObject([
      { amount: '40.00000000', to: bob.address, type: client.eventType('FUSD', 'Vault') },
    ]);
    expect(await getFusdBalance(client, alice.address)).toBe('110.25000000');
    expect(await getFusdBalance(client, bob.address)).toBe('40.00000000');
  });

  it('refuses to spend more than the balance', async () => {
    const alice = await newCollector(client);
    const bob = await newCollector(client);
    await mintFusd(client, alice.address, 5);
    await expect(transferFusd(client, alice, bob.address, '5.00000001')).rejects.toThrow(
      FlowTransactionError,
    );
    expect(await getFusdBalance(client, alice.address)).toBe('5.00000000');
    expect(await getFusdBalance(client, bob.address)).toBe('0.00000000');
  });

  it('answers 0 for an account without a vault', async () => {
    const stranger = await newCollector(client, { setup: false });
    expect(await getFusdBalance(client, stranger.address)).toBe('0.00000000');
  });
});
