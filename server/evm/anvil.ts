import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The local EVM node: anvil (Foundry), whose binary ships inside the npm package of its platform
 * (`@foundry-rs/anvil-<os>-<arch>`, an optional dependency of `@foundry-rs/anvil`). Its state is
 * loaded from and dumped to `stateFile`, so balances and deployed contracts survive a restart.
 */
export interface Anvil {
  url: string;
  stop(): Promise<void>;
}

const PLATFORMS: Record<string, string> = {
  'linux-x64': 'linux-amd64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-amd64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'win32-amd64',
};

/** The anvil binary of this platform. */
export function anvilBinary(): string {
  const platform = PLATFORMS[`${process.platform}-${process.arch}`];
  if (!platform) throw new Error(`anvil has no binary for ${process.platform}-${process.arch}`);
  const require = createRequire(import.meta.url);
  const pkg = require.resolve(`@foundry-rs/anvil-${platform}/package.json`);
  const binary = join(dirname(pkg), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  // npm keeps the mode of the tarball, but an install that skipped scripts may leave it unset.
  if ((statSync(binary).mode & 0o111) === 0) chmodSync(binary, 0o755);
  return binary;
}

/** The chain id anvil runs with (its default, Foundry's and Hardhat's local chain). */
export const ANVIL_CHAIN_ID = 31337;

/** Anvil's second dev account (its mnemonic is public): the embedded node's payments address. */
export const ANVIL_PAYMENTS_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

async function rpcReady(url: string, child: ChildProcess, ms: number) {
  for (const end = Date.now() + ms; ; ) {
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode}`);
    const ok = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > end) throw new Error(`anvil did not answer on ${url} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts anvil on 127.0.0.1:`port` (0: a free one it picks) and waits until its RPC answers. */
export async function startAnvil(options: { port: number; stateFile?: string; log?: Pick<Console, 'info'> }) {
  const args = ['--host', '127.0.0.1', '--port', String(options.port), '--chain-id', String(ANVIL_CHAIN_ID)];
  // Dumped every 5 s and on exit; loaded at start when the file exists.
  if (options.stateFile) args.push('--state', options.stateFile, '--state-interval', '5');
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const m = output.match(/Listening on 127\.0\.0\.1:(\d+)/);
      if (m) resolve(Number(m[1]));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.once('exit', (code) => reject(new Error(`anvil exited with ${code}: ${output.slice(-2000)}`)));
    child.once('error', reject);
  });
  // Its log is not ours to print; keep reading so the pipe never fills.
  child.stdout!.resume();
  const url = `http://127.0.0.1:${port}`;
  await rpcReady(url, child, 30_000);
  options.log?.info(`EVM node (anvil) on ${url}`);
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  } satisfies Anvil;
}
