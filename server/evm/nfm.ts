import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Contract, ContractFactory, type JsonRpcProvider, parseUnits } from 'ethers';

/**
 * The NFM utility token (an OpenZeppelin ERC20, contracts/NFM.sol) on the embedded EVM node:
 * compiled offline with solc-js from npm (cached in the data directory by source and compiler),
 * deployed on the first start by the node's first dev account, which holds the supply and funds
 * the other dev accounts (the collectors' test wallets). The platform receives payments at the
 * second dev account. What was deployed is kept in `evm.json` and re-used while its code is on
 * the chain.
 */
export interface NfmDeployment {
  tokenAddress: string;
  paymentsAddress: string;
}
export interface NfmArtifact {
  abi: unknown[];
  bytecode: string;
}

export const NFM_DECIMALS = 18;
/** The supply minted at deployment, and what each collector test wallet receives. */
const SUPPLY = parseUnits('1000000000', NFM_DECIMALS);
const COLLECTOR_FUNDS = parseUnits('100000', NFM_DECIMALS);

const SOURCE = join(import.meta.dirname, '..', '..', 'contracts', 'NFM.sol');

/** contracts/NFM.sol compiled with the solc-js of package.json, cached under `cacheDir`. */
export async function compileNfm(cacheDir: string): Promise<NfmArtifact> {
  const { default: solc } = await import('solc');
  const source = readFileSync(SOURCE, 'utf8');
  const key = createHash('sha256').update(source).update(solc.version()).digest('hex').slice(0, 16);
  const cached = join(cacheDir, `NFM.${key}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as NfmArtifact;
  const require = createRequire(import.meta.url);
  const input = {
    language: 'Solidity',
    sources: { 'NFM.sol': { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { NFM: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      // Imports resolve to node_modules (@openzeppelin/contracts).
      import: (path: string) => {
        try {
          return { contents: readFileSync(require.resolve(path), 'utf8') };
        } catch {
          return { error: `not found: ${path}` };
        }
      },
    }),
  ) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`NFM.sol: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts!['NFM.sol']!.NFM!;
  const artifact = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cached, JSON.stringify(artifact));
  return artifact;
}

/** The deployment recorded in `dataDir`, redeployed when its code is not on the chain. */
export async function ensureNfm(provider: JsonRpcProvider, dataDir: string): Promise<NfmDeployment> {
  const file = join(dataDir, 'evm.json');
  if (existsSync(file)) {
    const known = JSON.parse(readFileSync(file, 'utf8')) as NfmDeployment;
    if ((await provider.getCode(known.tokenAddress)) !== '0x') return known;
  }
  const artifact = await compileNfm(join(dataDir, 'solc-cache'));
  const accounts = (await provider.send('eth_accounts', [])) as string[];
  const [deployer, payments, ...collectors] = accounts;
  if (!deployer || !payments) throw new Error('the EVM node has no dev accounts to deploy NFM with');
  const signer = await provider.getSigner(deployer);
  const factory = new ContractFactory(artifact.abi as never, artifact.bytecode, signer);
  const token = await factory.deploy(deployer, SUPPLY);
  await token.waitForDeployment();
  const tokenAddress = await token.getAddress();
  const erc20 = new Contract(tokenAddress, artifact.abi as never, signer);
  for (const collector of collectors) {
    const tx = await erc20.getFunction('transfer')(collector, COLLECTOR_FUNDS);
    await tx.wait();
  }
  const deployment = { tokenAddress, paymentsAddress: payments };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(deployment, null, 2));
  return deployment;
}
