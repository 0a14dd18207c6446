import type { Log } from '../clock';
import type { Config } from '../config';
import type { ChainStatus } from '../deps';
import { devWalletUrl } from '../origin';
import { FlowClient } from './client';
import { type ChainConfig, loadChainConfig } from './config';
import { deployContracts } from './deploy';
import { startEmulator } from './emulator';

/** FCL's wallet discovery per public network (FLOW_WALLET_DISCOVERY overrides). */
const publicDiscovery: Record<string, string> = {
  emulator: 'http://127.0.0.1:8701/fcl/authn',
  testnet: 'https://fcl-discovery.onflow.org/testnet/authn',
  mainnet: 'https://fcl-discovery.onflow.org/authn',
};

/** The chain as the server runs it: its status for /api/health, a client, and how to stop it. */
export interface ChainHandle {
  status: ChainStatus;
  client: FlowClient;
  stop(): Promise<void>;
}

/**
 * Brings up the chain for the server. With FLOW_EMULATOR=embedded (the default on the emulator
 * network) the emulator persists in `<dataDir>/flowdb` on FLOW_ACCESS_NODE's port, the FCL dev wallet
 * runs beside it, and Vitrine's contracts are deployed once (idempotent). Otherwise the configured
 * access node must answer and the contracts must already be deployed (server/chain/deploy.ts).
 * FLOW_EMULATOR=off: no chain.
 */
export async function startChain(
  config: Config,
  log: Log,
  chain: ChainConfig = loadChainConfig(),
): Promise<ChainHandle | null> {
  if (config.flowEmulator === 'off') return null;
  if (config.flowEmulator === 'embedded') {
    const emulator = await startEmulator({
      dataDir: config.dataDir,
      restPort: Number(new URL(chain.accessNode).port || 8888),
      devWalletPort: config.devWalletPort,
      log: (line) => log.info(line),
    });
    try {
      const client = new FlowClient({ ...chain, accessNode: emulator.accessNode });
      await deployContracts(client, (line) => log.info(`Flow: ${line}`));
      return {
        status: {
          network: chain.network,
          accessNode: emulator.accessNode,
          // The browser's address of the wallet: same-site with the product's pages.
          devWallet: devWalletUrl(config.publicUrl, config.devWalletPort),
          walletDiscovery:
            process.env.FLOW_WALLET_DISCOVERY ||
            `${devWalletUrl(config.publicUrl, config.devWalletPort)}/fcl/authn`,
        },
        client,
        stop: () => emulator.stop(),
      };
    } catch (err) {
      await emulator.stop();
      throw err;
    }
  }
  const res = await fetch(`${chain.accessNode}/v1/network/parameters`).catch(() => null);
  if (!res?.ok) throw new Error(`The Flow access node at ${chain.accessNode} does not answer`);
  return {
    status: {
      network: chain.network,
      accessNode: chain.accessNode,
      walletDiscovery: process.env.FLOW_WALLET_DISCOVERY || publicDiscovery[chain.network]!,
    },
    client: new FlowClient(chain),
    stop: async () => {},
  };
}
