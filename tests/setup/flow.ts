import type { TestProject } from 'vitest/node';
import { FlowClient } from '../../server/chain/client';
import { emulatorChainConfig } from '../../server/chain/config';
import { deployContracts } from '../../server/chain/deploy';
import { startEmulator } from '../../server/chain/emulator';

/**
 * Vitest globalSetup of the "chain" project: one in-memory Flow emulator (the real one, built into
 * .tools by scripts/go-tools.ts when missing) on free ports, with Vitrine's contracts deployed
 * once. Provides `flowAccessNode`, its REST URL; stops the emulator afterwards.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    flowAccessNode: string;
  }
}

export default async function setup(project: TestProject) {
  const emulator = await startEmulator({ log: (line) => console.log(`[flow] ${line}`) });
  try {
    await deployContracts(new FlowClient(emulatorChainConfig(emulator.accessNode)));
  } catch (err) {
    await emulator.stop();
    throw err;
  }
  project.provide('flowAccessNode', emulator.accessNode);
  return () => emulator.stop();
}
