import { randomInt } from 'node:crypto';
import { inject } from 'vitest';
import { createAccount } from '../../server/chain/accounts';
import { setupAccount } from '../../server/chain/actions';
import { FlowClient } from '../../server/chain/client';
import { type AccountKey, emulatorChainConfig } from '../../server/chain/config';

/** A client of the emulator that the global setup started, with Vitrine's contracts deployed. */
export function chainClient(): FlowClient {
  return new FlowClient(emulatorChainConfig(inject('flowAccessNode')));
}

/** A new emulator account; set up for Vitrine (collection + FUSD vault) unless `setup` is false. */
export async function newCollector(
  client: FlowClient,
  options: { setup?: boolean } = {},
): Promise<AccountKey> {
  const account = await createAccount(client);
  if (options.setup !== false) await setupAccount(client, account);
  return account;
}

let nextBlueprint = randomInt(1, 2 ** 40) * 1000;
/** A blueprint id no other test uses (editions are unique per blueprint on chain). */
export const freshBlueprintId = () => ++nextBlueprint;
