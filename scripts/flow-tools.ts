/**
 * The local Flow toolchain: the Flow emulator and the FCL dev wallet, built from the Go module proxy
 * into .tools/bin (git-ignored) the first time they are needed. `npx tsx scripts/flow-tools.ts` builds
 * them on its own; the server and the chain tests call ensureFlowTools().
 *
 * Each module is fetched at its pinned version with `go mod download` and built in place with its
 * own go.mod and go.sum (what `go install module@version` does). `go install` itself cannot be used
 * here: it asks the proxy for the module's version list to check deprecation, and this machine's
 * proxy refuses version lists of these modules (403) while serving the pinned versions.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** v1.21.0 is not served by the module proxy here; v1.22.0 is. */
const emulatorTool = { module: 'github.com/onflow/flow-emulator', version: 'v1.22.0', pkg: './cmd/emulator' };
const devWalletTool = {
  module: 'github.com/onflow/fcl-dev-wallet',
  version: 'v0.9.1',
  pkg: './go/wallet/cmd',
};

const root = resolve(import.meta.dirname, '..');
export const toolsBin = join(root, '.tools', 'bin');
export const emulatorBinary = join(toolsBin, 'flow-emulator');
export const devWalletBinary = join(toolsBin, 'fcl-dev-wallet');
const stampFile = join(toolsBin, 'versions.json');
const wanted = { emulator: emulatorTool.version, devWallet: devWalletTool.version };

export class ToolchainError extends Error {}

function built(): boolean {
  if (!existsSync(emulatorBinary) || !existsSync(devWalletBinary) || !existsSync(stampFile)) return false;
  return JSON.stringify(JSON.parse(readFileSync(stampFile, 'utf8'))) === JSON.stringify(wanted);
}

function go(args: string[], options: { cwd?: string; capture?: boolean } = {}) {
  const r = spawnSync('go', args, {
    cwd: options.cwd,
    stdio: ['ignore', options.capture ? 'pipe' : 'inherit', 'inherit'],
    encoding: 'utf8',
    env: {
      ...process.env,
      CGO_ENABLED: '1',
      CGO_CFLAGS: '-O2 -D__BLST_PORTABLE__',
      GOFLAGS: '-buildvcs=false',
    },
  });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new ToolchainError(
      'Go is needed to build the Flow emulator: install Go 1.26 or newer (https://go.dev/dl) and start again.',
    );
  }
  if (r.status !== 0) throw new ToolchainError(`go ${args.join(' ')} failed (exit ${r.status})`);
  return r.stdout;
}

function build(
  tool: { module: string; version: string; pkg: string },
  output: string,
  log: (line: string) => void,
) {
  const started = Date.now();
  log(`Building ${tool.module}@${tool.version} (first time only; a few minutes)…`);
  const { Dir } = JSON.parse(
    go(['mod', 'download', '-json', `${tool.module}@${tool.version}`], { capture: true }),
  ) as {
    Dir: string;
  };
  go(['build', '-o', output, tool.pkg], { cwd: Dir });
  log(`Built ${tool.module}@${tool.version} in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Builds the emulator and the dev wallet unless the pinned versions are already there. */
export function ensureFlowTools(log: (line: string) => void = console.log): {
  emulator: string;
  devWallet: string;
} {
  if (!built()) {
    mkdirSync(toolsBin, { recursive: true });
    build(emulatorTool, emulatorBinary, log);
    build(devWalletTool, devWalletBinary, log);
    writeFileSync(stampFile, JSON.stringify(wanted));
  }
  return { emulator: emulatorBinary, devWallet: devWalletBinary };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const started = Date.now();
    const tools = ensureFlowTools();
    console.log(
      `Flow tools ready in ${Math.round((Date.now() - started) / 1000)} s: ${tools.emulator}, ${tools.devWallet}`,
    );
  } catch (err) {
    console.error(err instanceof ToolchainError ? err.message : err);
    process.exit(1);
  }
}
