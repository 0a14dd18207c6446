import type { Config } from '../config';
import type { ChainStatus, Log } from '../deps';
import { loadChainConfig } from './config';
import { startEmulator } from './emulator';

/** The chain as the server runs it: its status for /api/health and how to stop it. */
export interface ChainHandle {
  status: ChainStatus;
  stop(): Promise<void>;
}

/**
 * Brings up the chain for the server: with FLOW_EMULATOR=embedded (the default on the emulator
 * network) the emulator persists in `<dataDir>/flowdb` on FLOW_ACCESS_NODE's port, with the FCL dev
 * wallet beside it; otherwise the configured access node must answer. FLOW_EMULATOR=off: no chain.
 */
export async function startChain(config: Config, log: Log): Promise<ChainHandle | null> {
  if (config.flowEmulator === 'off') return null;
  const chain = loadChainConfig();
  if (config.flowEmulator === 'embedded') {
    const emulator = await startEmulator({
      dataDir: config.dataDir,
      restPort: Number(new URL(chain.accessNode).port || 8888),
      devWalletPort: config.devWalletPort,
      log: (line) => log.info(line),
    });
    return {
      status: { network: chain.network, accessNode: emulator.accessNode, devWallet: emulator.devWallet },
      stop: () => emulator.stop(),
    };
  }
  const res = await fetch(`${chain.accessNode}/v1/network/parameters`).catch(() => null);
  if (!res?.ok) throw new Error(`The Flow access node at ${chain.accessNode} does not answer`);
  return { status: { network: chain.network, accessNode: chain.accessNode }, stop: async () => {} };
}
