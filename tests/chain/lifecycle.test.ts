import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getNfts, mintNft } from '../../server/chain/actions';
import { emulatorChainConfig } from '../../server/chain/config';
import { freePort } from '../../server/chain/emulator';
import { startChain } from '../../server/chain/lifecycle';
import type { Config } from '../../server/config';
import { childProcesses, listeningSockets, outsideAddresses, tryConnect } from '../api/support/sockets';
import { newCollector } from './support';

/**
 * The chain as `npm start` runs it: an embedded emulator persisting in the data directory, the dev
 * wallet beside it, contracts deployed on the first start only; stopped with the server.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-chain-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const logged: string[] = [];
const log = { info: (line: string) => logged.push(line), error: () => {} };

async function embedded() {
  const restPort = await freePort();
  const config = {
    flowEmulator: 'embedded',
    dataDir,
    devWalletPort: await freePort(),
    publicUrl: 'http://localhost:3000',
  } as Config;
  return startChain(config, log, emulatorChainConfig(`http://127.0.0.1:${restPort}`));
}

describe('embedded chain', () => {
  it('deploys on the first start, keeps its state across restarts, and deploys nothing the second time', async () => {
    const first = (await embedded())!;
    let nftId: string;
    let collector: string;
    try {
      expect(first.status).toMatchObject({
        network: 'emulator',
        // The browser's address of the wallet, under the product's own host name (same-site).
        devWallet: expect.stringMatching(/^http:\/\/localhost:\d+$/),
      });
      // FUSD, VitrineNFT, FCLCrypto, VitrineBlueprints, VitrineCheckout, VitrineOffers.
      expect(logged.filter((l) => l.includes('deployed'))).toHaveLength(6);
      expect((await fetch(first.status.devWallet!)).ok).toBe(true);
      const account = await newCollector(first.client);
      collector = account.address;
      ({ nftId } = await mintNft(first.client, {
        to: collector,
        blueprintId: 7,
        serialNumber: 1,
        metadata: { name: 'Kept' },
      }));
    } finally {
      await first.stop();
    }
    await expect(fetch(`${first.status.accessNode}/v1/network/parameters`)).rejects.toThrow();

    logged.length = 0;
    const second = (await embedded())!;
    try {
      expect(logged.filter((l) => l.includes('deployed'))).toEqual([]);
      const nfts = await getNfts(second.client, collector);
      expect(nfts.map((n) => [n.id, n.metadata.name])).toEqual([[nftId, 'Kept']]);
    } finally {
      await second.stop();
    }
  });

  it('listens on 127.0.0.1 only: the emulator (REST, gRPC, admin, debugger) and the dev wallet, as the kernel reports', async () => {
    const chain = (await embedded())!;
    try {
      const emulator = childProcesses('flow-emulator').flatMap(listeningSockets);
      const wallet = childProcesses('fcl-dev-wallet').flatMap(listeningSockets);
      expect(emulator).toHaveLength(4);
      expect(wallet.map((s) => s.port)).toEqual([Number(new URL(chain.status.devWallet!).port)]);
      for (const socket of [...emulator, ...wallet])
        expect(socket.address, `port ${socket.port}`).toBe('127.0.0.1');
      for (const host of outsideAddresses())
        for (const { port } of [...emulator, ...wallet])
          expect(await tryConnect(host, port), `${host}:${port}`).toBe('ECONNREFUSED');
    } finally {
      await chain.stop();
    }
  });

  it('is off when FLOW_EMULATOR=off', async () => {
    expect(await startChain({ flowEmulator: 'off' } as Config, log)).toBeNull();
  });

  it('refuses an external access node that does not answer', async () => {
    const port = await freePort();
    await expect(
      startChain(
        { flowEmulator: 'external' } as Config,
        log,
        emulatorChainConfig(`http://127.0.0.1:${port}`),
      ),
    ).rejects.toThrow(/does not answer/);
  });
});
