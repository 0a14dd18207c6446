import { pathToFileURL } from 'node:url';
import { checkCollection, getFusdBalance, mintFusd, setupAccount } from './actions';
import { FlowClient } from './client';
import { type ChainConfig, loadChainConfig, type VitrineContract, vitrineContracts } from './config';

/**
 * Deploys Vitrine's contracts (FUSD, VitrineNFT, FCLCrypto) to the admin account, then sets the
 * admin account up like a collector (VitrineNFT collection and FUSD vault), since it also receives
 * the platform's fees. Idempotent: a contract the account already has is left alone (its source is
 * not compared or updated) and the setup runs only when missing, so this runs on every start. A
 * contract configured at another address than the admin's is not deployed here (it is someone
 * else's, e.g. FCLCrypto on testnet and mainnet).
 *
 * The admin's FUSD vault is the platform's treasury (server/chain/treasury.ts pays buyers from it).
 * On the emulator, when the admin holds FUSD's Administrator (FUSD deployed to the admin account)
 * and the treasury holds less than TREASURY_LOW_FUSD, TREASURY_TOP_UP_FUSD is minted into it. On
 * other networks the operator funds the treasury; nothing is minted.
 *
 * `npx tsx server/chain/deploy.ts` deploys to the network the environment describes (by default
 * the emulator at http://127.0.0.1:8888).
 */

export interface DeployResult {
  deployed: VitrineContract[];
  present: VitrineContract[];
  /** Contracts configured at another address than the admin's. */
  elsewhere: VitrineContract[];
  /** Whether the admin account had to be set up (collection and FUSD vault). */
  adminSetUp: boolean;
  /** Whether FUSD was minted into the treasury (the admin's vault; emulator only). */
  treasuryFunded: boolean;
}

/** Below this balance the emulator's treasury is topped up … */
export const TREASURY_LOW_FUSD = 100_000n;
/** … with this much FUSD. */
export const TREASURY_TOP_UP_FUSD = '1000000.0';

export async function deployContracts(
  client: FlowClient,
  log: (line: string) => void = () => {},
): Promise<DeployResult> {
  const { admin, contracts } = client.config;
  const result: DeployResult = {
    deployed: [],
    present: [],
    elsewhere: [],
    adminSetUp: false,
    treasuryFunded: false,
  };
  const existing = new Set(Object.keys((await client.account(admin.address)).contracts ?? {}));
  for (const name of vitrineContracts) {
    if (contracts[name] !== admin.address) {
      result.elsewhere.push(name);
      continue;
    }
    if (existing.has(name)) {
      result.present.push(name);
      continue;
    }
    const code = Buffer.from(client.code(`contracts/${name}.cdc`), 'utf8').toString('hex');
    const tx = await client.transact('transactions/deploy_contract.cdc', {
      signer: admin,
      args: (arg, t) => [arg(name, t.String), arg(code, t.String)],
    });
    log(`deployed ${name} to ${admin.address} (transaction ${tx.id})`);
    result.deployed.push(name);
  }
  if (!(await checkCollection(client, admin.address)).ready) {
    await setupAccount(client, admin);
    log(`set up ${admin.address} with a VitrineNFT collection and an FUSD vault`);
    result.adminSetUp = true;
  }
  if (client.config.network === 'emulator' && contracts.FUSD === admin.address) {
    const balance = await getFusdBalance(client, admin.address);
    if (BigInt(balance.split('.')[0] ?? '0') < TREASURY_LOW_FUSD) {
      const tx = await mintFusd(client, admin.address, TREASURY_TOP_UP_FUSD);
      log(
        `funded the treasury ${admin.address}: minted ${TREASURY_TOP_UP_FUSD} FUSD (had ${balance}; transaction ${tx.id})`,
      );
      result.treasuryFunded = true;
    }
  }
  return result;
}

/** Waits until the access node answers (a freshly started emulator). */
export async function waitForAccessNode(
  config: Pick<ChainConfig, 'accessNode'>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${config.accessNode}/v1/network/parameters`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`the Flow access node ${config.accessNode} did not answer`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const config = loadChainConfig();
  await waitForAccessNode(config, 5_000);
  const result = await deployContracts(new FlowClient(config), console.log);
  console.log(
    `${config.network} ${config.accessNode}: deployed [${result.deployed.join(', ')}], already present [${result.present.join(', ')}]` +
      (result.elsewhere.length ? `, configured elsewhere [${result.elsewhere.join(', ')}]` : '') +
      (result.treasuryFunded ? ', treasury funded' : ''),
  );
}
