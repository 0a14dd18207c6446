/**
 * Minting on a fresh in-memory emulator: N NFTs minted one after another by the admin account to a
 * collector, timing each from submission (building, signing and sending the transaction) to the
 * moment the client sees it sealed. `npx tsx bench/mint.ts [N]` prints the median and p90.
 */
import { pathToFileURL } from 'node:url';
import { createAccount } from '../server/chain/accounts';
import { mintNft, setupAccount } from '../server/chain/actions';
import { FlowClient } from '../server/chain/client';
import { emulatorChainConfig } from '../server/chain/config';
import { deployContracts } from '../server/chain/deploy';
import { startEmulator } from '../server/chain/emulator';

function percentile(sorted: number[], p: number): number {
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

export async function mintTimes(
  n = 20,
): Promise<{ n: number; medianMs: number; p90Ms: number; samplesMs: number[] }> {
  const emulator = await startEmulator();
  try {
    const client = new FlowClient(emulatorChainConfig(emulator.accessNode));
    await deployContracts(client);
    const collector = await createAccount(client);
    await setupAccount(client, collector);
    const samplesMs: number[] = [];
    for (let serialNumber = 1; serialNumber <= n; serialNumber++) {
      const started = performance.now();
      await mintNft(client, {
        to: collector.address,
        blueprintId: 1,
        serialNumber,
        metadata: { name: `Bench #${serialNumber}` },
      });
      samplesMs.push(performance.now() - started);
    }
    const sorted = [...samplesMs].sort((a, b) => a - b);
    const median =
      sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
    return { n, medianMs: median, p90Ms: percentile(sorted, 90), samplesMs };
  } finally {
    await emulator.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await mintTimes(Number(process.argv[2] ?? 20));
  console.log(
    `mint on the emulator, submit → sealed, ${r.n} sequential: median ${r.medianMs.toFixed(1)} ms, p90 ${r.p90Ms.toFixed(1)} ms`,
  );
}
