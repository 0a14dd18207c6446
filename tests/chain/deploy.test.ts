import { describe, expect, it } from 'vitest';
import { createAccount } from '../../server/chain/accounts';
import { checkCollection } from '../../server/chain/actions';
import { bindImports } from '../../server/chain/cadence';
import { FlowClient } from '../../server/chain/client';
import { emulatorChainConfig, emulatorContracts, loadChainConfig } from '../../server/chain/config';
import { deployContracts } from '../../server/chain/deploy';
import { EMULATOR_SERVICE_ADDRESS, EMULATOR_SERVICE_KEY } from '../../server/chain/emulator';
import { chainClient } from './support';

describe('deploy', () => {
  it('finds the contracts deployed by the global setup and deploys nothing again', async () => {
    const client = chainClient();
    const result = await deployContracts(client);
    expect(result).toEqual({
      deployed: [],
      present: ['FUSD', 'VitrineNFT', 'FCLCrypto', 'VitrineBlueprints', 'VitrineCheckout', 'VitrineOffers'],
      elsewhere: [],
      adminSetUp: false,
      treasuryFunded: false,
    });
    const account = await client.account(EMULATOR_SERVICE_ADDRESS);
    expect(Object.keys(account.contracts)).toEqual(
      expect.arrayContaining([
        'FUSD',
        'VitrineNFT',
        'FCLCrypto',
        'VitrineBlueprints',
        'VitrineCheckout',
        'VitrineOffers',
        'NFTStorefrontV2',
        'NonFungibleToken',
      ]),
    );
  });

  it('deploys to an empty admin account, sets it up, and skips everything the second time', async () => {
    const service = chainClient();
    const admin = await createAccount(service);
    const config = emulatorChainConfig(service.config.accessNode, {
      admin,
      contracts: {
        ...emulatorContracts,
        VitrineNFT: admin.address,
        FUSD: admin.address,
        FCLCrypto: admin.address,
        VitrineBlueprints: admin.address,
        VitrineCheckout: admin.address,
        VitrineOffers: admin.address,
      },
    });
    const client = new FlowClient(config);
    const logged: string[] = [];

    const first = await deployContracts(client, (line) => logged.push(line));
    expect(first).toEqual({
      deployed: ['FUSD', 'VitrineNFT', 'FCLCrypto', 'VitrineBlueprints', 'VitrineCheckout', 'VitrineOffers'],
      present: [],
      elsewhere: [],
      adminSetUp: true,
      // The emulator's platform treasury starts with 1,000,000 FUSD (it pays top-ups and refunds).
      treasuryFunded: true,
    });
    expect(logged).toHaveLength(8);
    expect(Object.keys((await client.account(admin.address)).contracts).sort()).toEqual([
      'FCLCrypto',
      'FUSD',
      'VitrineBlueprints',
      'VitrineCheckout',
      'VitrineNFT',
      'VitrineOffers',
    ]);
    expect(await checkCollection(client, admin.address)).toEqual({
      collection: true,
      fusdVault: true,
      ready: true,
    });

    const second = await deployContracts(client);
    expect(second).toEqual({
      deployed: [],
      present: ['FUSD', 'VitrineNFT', 'FCLCrypto', 'VitrineBlueprints', 'VitrineCheckout', 'VitrineOffers'],
      elsewhere: [],
      adminSetUp: false,
      treasuryFunded: false,
    });
  });

  it('leaves contracts configured at another address alone', async () => {
    const service = chainClient();
    const admin = await createAccount(service);
    const client = new FlowClient(emulatorChainConfig(service.config.accessNode, { admin }));
    const result = await deployContracts(client);
    expect(result.elsewhere).toEqual([
      'FUSD',
      'VitrineNFT',
      'FCLCrypto',
      'VitrineBlueprints',
      'VitrineCheckout',
      'VitrineOffers',
    ]);
    expect(result.deployed).toEqual([]);
    expect(Object.keys((await client.account(admin.address)).contracts)).toEqual([]);
  });
});

describe('chain config', () => {
  it('defaults to the emulator and its service account', () => {
    const config = loadChainConfig({});
    expect(config.network).toBe('emulator');
    expect(config.accessNode).toBe('http://127.0.0.1:8888');
    expect(config.admin).toMatchObject({
      address: EMULATOR_SERVICE_ADDRESS,
      privateKey: EMULATOR_SERVICE_KEY,
      keyIndex: 0,
    });
    expect(config.contracts.VitrineNFT).toBe(EMULATOR_SERVICE_ADDRESS);
    expect(config.contracts.FungibleToken).toBe('0xee82856bf20e2aa6');
    expect(config.computeLimit).toBe(9999);
  });

  it('takes testnet standard contracts by default but needs Vitrine addresses and an admin key', () => {
    expect(() => loadChainConfig({ FLOW_NETWORK: 'testnet' })).toThrow(
      /FLOW_VITRINE_ADDRESS, FLOW_FUSD_ADDRESS, FLOW_VITRINE_BLUEPRINTS_ADDRESS, FLOW_VITRINE_CHECKOUT_ADDRESS, FLOW_VITRINE_OFFERS_ADDRESS, FLOW_ADMIN_ADDRESS, FLOW_ADMIN_PRIVATE_KEY/,
    );
    const config = loadChainConfig({
      FLOW_NETWORK: 'testnet',
      FLOW_VITRINE_ADDRESS: '0x1234',
      FLOW_FUSD_ADDRESS: 'abcdef0123456789',
      FLOW_VITRINE_BLUEPRINTS_ADDRESS: '0x1234',
      FLOW_VITRINE_CHECKOUT_ADDRESS: '0x1234',
      FLOW_VITRINE_OFFERS_ADDRESS: '0x1234',
      FLOW_ADMIN_ADDRESS: '0xABCDEF0123456789',
      FLOW_ADMIN_PRIVATE_KEY: `0x${'1'.repeat(64)}`,
      FLOW_ADMIN_KEY_INDEX: '2',
      FLOW_INDEXER_START_HEIGHT: '218215349',
    });
    expect(config.accessNode).toBe('https://rest-testnet.onflow.org');
    expect(config.indexerStartHeight).toBe(218215349);
    expect(config.contracts).toMatchObject({
      VitrineNFT: '0x0000000000001234',
      FUSD: '0xabcdef0123456789',
      NFTStorefrontV2: '0x2d55b98eb200daef',
      FCLCrypto: '0x74daa6f9c7ef24b1',
      VitrineBlueprints: '0x0000000000001234',
    });
    expect(config.admin).toMatchObject({
      address: '0xabcdef0123456789',
      privateKey: '1'.repeat(64),
      keyIndex: 2,
    });
  });

  it('refuses an unknown network and a malformed key', () => {
    expect(() => loadChainConfig({ FLOW_NETWORK: 'devnet' })).toThrow(/FLOW_NETWORK must be one of/);
    expect(() => loadChainConfig({ FLOW_ADMIN_PRIVATE_KEY: 'abc' })).toThrow(/32 bytes of hex/);
    expect(() => loadChainConfig({ FLOW_INDEXER_START_HEIGHT: 'latest' })).toThrow(
      /FLOW_INDEXER_START_HEIGHT must be a non-negative integer/,
    );
    expect(loadChainConfig({}).indexerStartHeight).toBeUndefined();
  });

  it('binds name imports to the configured addresses and refuses unknown names', () => {
    const source = 'import "VitrineNFT"\n  import "FUSD"\naccess(all) fun main() {}';
    expect(bindImports(source, emulatorContracts)).toBe(
      `import VitrineNFT from ${EMULATOR_SERVICE_ADDRESS}\n  import FUSD from ${EMULATOR_SERVICE_ADDRESS}\naccess(all) fun main() {}`,
    );
    expect(() => bindImports('import "Nope"\n', emulatorContracts)).toThrow(/"Nope"/);
  });
});
