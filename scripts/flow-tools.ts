/**
 * The local Flow toolchain: the Flow emulator and the FCL dev wallet, built from the Go module proxy
 * into .tools/bin (git-ignored) the first time they are needed. `npx tsx scripts/flow-tools.ts` builds
 * them on its own; the server and the chain tests call ensureFlowTools().
 *
 * Each module is fetched at its pinned version with `go mod download`, copied out of the module
 * cache, patched, and built with its own go.mod and go.sum (what `go install module@version` does).
 * `go install` itself cannot be used here: it asks the proxy for the module's version list to check
 * deprecation, and this machine's proxy refuses version lists of these modules (403) while serving
 * the pinned versions.
 *
 * The patch: both tools listen on every interface where their code says `:port` (the emulator's
 * debugger, which no flag moves, and the whole dev wallet, which holds the emulator's service key and
 * has no host flag). Each is rewritten to `127.0.0.1:port`; a version whose source no longer has that
 * line stops the build instead of shipping a tool that listens everywhere.
 *
 * The build runs as child processes the event loop waits for, never a synchronous one: a server that
 * builds on its first start keeps answering (503 `starting`) meanwhile.
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

interface Tool {
  module: string;
  version: string;
  pkg: string;
  binary: string;
  /** Where the tool listens on every interface, and the loopback-only line it becomes. */
  loopback: { file: string; from: string; to: string };
}

/** v1.21.0 is not served by the module proxy here; v1.22.0 is. */
const emulatorTool: Tool = {
  module: 'github.com/onflow/flow-emulator',
  version: 'v1.22.0',
  pkg: './cmd/emulator',
  binary: 'flow-emulator',
  loopback: {
    file: 'server/debugger/debugger.go',
    from: 'fmt.Sprintf(":%d", d.port)',
    to: 'fmt.Sprintf("127.0.0.1:%d", d.port)',
  },
};
const devWalletTool: Tool = {
  module: 'github.com/onflow/fcl-dev-wallet',
  version: 'v0.9.1',
  pkg: './go/wallet/cmd',
  binary: 'fcl-dev-wallet',
  loopback: {
    file: 'go/wallet/server.go',
    from: 'fmt.Sprintf(":%d", port)',
    to: 'fmt.Sprintf("127.0.0.1:%d", port)',
  },
};

const root = resolve(import.meta.dirname, '..');
/** Bumped whenever the patches change, so an older build is made again. */
const PATCH_LEVEL = 'loopback-1';
const wanted = { emulator: emulatorTool.version, devWallet: devWalletTool.version, patches: PATCH_LEVEL };

export class ToolchainError extends Error {}

export interface FlowTools {
  emulator: string;
  devWallet: string;
}

export interface FlowToolsOptions {
  log?: (line: string) => void;
  /** Where the tools live: `<dir>/bin`, their patched sources in `<dir>/src` (default .tools). */
  dir?: string;
  /** The Go command (default `go` on the PATH). */
  go?: string;
}

function run(command: string, args: string[], options: { cwd?: string; capture?: boolean }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      stdio: ['ignore', options.capture ? 'pipe' : 'inherit', 'inherit'],
      env: {
        ...process.env,
        CGO_ENABLED: '1',
        CGO_CFLAGS: '-O2 -D__BLST_PORTABLE__',
        GOFLAGS: '-buildvcs=false',
      },
    });
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new ToolchainError(
              'Go is needed to build the Flow emulator: install Go 1.26 or newer (https://go.dev/dl) and start again.',
            )
          : err,
      ),
    );
    child.once('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new ToolchainError(`go ${args.join(' ')} failed (exit ${code})`));
    });
  });
}

/** Copies the module out of the (read-only) module cache and makes it listen on loopback only. */
function patchedCopy(tool: Tool, moduleDir: string, srcDir: string): string {
  const copy = join(srcDir, `${tool.binary}@${tool.version}`);
  rmSync(copy, { recursive: true, force: true });
  cpSync(moduleDir, copy, { recursive: true });
  const file = join(copy, tool.loopback.file);
  const source = readFileSync(file, 'utf8');
  if (source.split(tool.loopback.from).length !== 2)
    throw new ToolchainError(
      `${tool.module}@${tool.version}: ${tool.loopback.file} no longer has ${tool.loopback.from} (the loopback patch)`,
    );
  chmodSync(file, 0o644);
  writeFileSync(file, source.replace(tool.loopback.from, tool.loopback.to));
  return copy;
}

async function build(tool: Tool, dir: string, go: string, log: (line: string) => void) {
  const started = Date.now();
  log(`Building ${tool.module}@${tool.version} (first time only; a few minutes)…`);
  const { Dir } = JSON.parse(
    await run(go, ['mod', 'download', '-json', `${tool.module}@${tool.version}`], { capture: true }),
  ) as { Dir: string };
  const source = patchedCopy(tool, Dir, join(dir, 'src'));
  await run(go, ['build', '-o', join(dir, 'bin', tool.binary), tool.pkg], { cwd: source });
  log(`Built ${tool.module}@${tool.version} in ${Math.round((Date.now() - started) / 1000)} s`);
}

async function ensure(dir: string, go: string, log: (line: string) => void): Promise<FlowTools> {
  const bin = join(dir, 'bin');
  const tools = { emulator: join(bin, emulatorTool.binary), devWallet: join(bin, devWalletTool.binary) };
  const stamp = join(bin, 'versions.json');
  const built =
    existsSync(tools.emulator) &&
    existsSync(tools.devWallet) &&
    existsSync(stamp) &&
    JSON.stringify(JSON.parse(readFileSync(stamp, 'utf8'))) === JSON.stringify(wanted);
  if (!built) {
    mkdirSync(bin, { recursive: true });
    await build(emulatorTool, dir, go, log);
    await build(devWalletTool, dir, go, log);
    writeFileSync(stamp, JSON.stringify(wanted));
  }
  return tools;
}

const builds = new Map<string, Promise<FlowTools>>();

/**
 * Builds the emulator and the dev wallet unless the pinned versions with the current patches are
 * already there. Callers in one process share one build; a failed build is tried again next time.
 */
export function ensureFlowTools(options: FlowToolsOptions = {}): Promise<FlowTools> {
  const dir = options.dir ?? join(root, '.tools');
  let pending = builds.get(dir);
  if (!pending) {
    pending = ensure(dir, options.go ?? 'go', options.log ?? console.log);
    builds.set(dir, pending);
    pending.catch(() => builds.delete(dir));
  }
  return pending;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const started = Date.now();
    const tools = await ensureFlowTools();
    console.log(
      `Flow tools ready in ${Math.round((Date.now() - started) / 1000)} s: ${tools.emulator}, ${tools.devWallet}`,
    );
  } catch (err) {
    console.error(err instanceof ToolchainError ? err.message : err);
    process.exit(1);
  }
}
