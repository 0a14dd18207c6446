import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mintNft } from '../../server/chain/actions';
import { emulatorChainConfig } from '../../server/chain/config';
import { freePort } from '../../server/chain/emulator';
import { startChain } from '../../server/chain/lifecycle';
import { start } from '../../server/start';
import { testConfig } from '../api/support/harness';
import { newCollector } from './support';

/** The server as `npm start` runs it: database, embedded chain and the indexer keeping nfts in step. */
const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-server-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('server with an embedded chain', () => {
  it('reports the chain in /api/health and indexes a mint into GET /api/nfts', async () => {
    const accessNode = `http://127.0.0.1:${await freePort()}`;
    let handle: Awaited<ReturnType<typeof startChain>> = null;
    const config = {
      ...testConfig('memory://', dataDir),
      flowEmulator: 'embedded' as const,
      devWalletPort: await freePort(),
    };
    const server = await start(config, {
      log: { info() {}, error() {} },
      startChain: async (c, log) => {
        handle = await startChain(c, log, emulatorChainConfig(accessNode));
        return handle;
      },
    });
    try {
      await server.ready;
      const health = await (await fetch(`http://localhost:${server.port}/api/health`)).json();
      expect(health.chain).toMatchObject({ network: 'emulator', accessNode });
      const chainConfig = await (await fetch(`http://localhost:${server.port}/api/chain/config`)).json();
      expect(chainConfig).toMatchObject({
        network: 'emulator',
        accessNode,
        walletDiscovery: `${health.chain.devWallet}/fcl/authn`,
        contracts: { VitrineNFT: '0xf8d6e0586b0a20c7', NFTStorefrontV2: '0xf8d6e0586b0a20c7' },
      });

      const client = handle!.client;
      const collector = await newCollector(client);
      const { nftId } = await mintNft(client, {
        to: collector.address,
        blueprintId: 4242,
        serialNumber: 1,
        metadata: {},
      });
      let found: { id: string; owner?: unknown } | undefined;
      for (let i = 0; i < 50 && !found; i++) {
        const list = await (await fetch(`http://localhost:${server.port}/api/nfts?blueprintId=4242`)).json();
        found = list.results?.find((n: { id: string }) => n.id === nftId);
        if (!found) await new Promise((r) => setTimeout(r, 200));
      }
      expect(found).toBeDefined();
    } finally {
      await server.close();
    }
    await expect(fetch(`${accessNode}/v1/network/parameters`)).rejects.toThrow();
  });
});
