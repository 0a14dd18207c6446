/**
 * The embedded world's Go tools, built from the Go module proxy into .tools/bin (git-ignored) the first
 * time they are needed: the Flow emulator and the FCL dev wallet (the chain), Mailpit (the SMTP server
 * and inbox `npm start` sends email to) and SeaweedFS (an S3-compatible object store; only built for
 * the S3 tests or `STORAGE=s3` with no S3_ENDPOINT). `npx tsx scripts/go-tools.ts [flow|mail|storage]…`
 * builds them on its own (default: flow and mail); the server and the tests call the ensure functions.
 *
 * Each module is fetched at its pinned version with `go mod download`, copied out of the module
 * cache, patched where needed, and built with its own go.mod and go.sum (what `go install
 * module@version` does). `go install` itself cannot be used: it asks the proxy for the module's version
 * list, which this machine's proxy refuses for some of these modules while serving the pinned
 * versions, and it refuses a module with replace directives (SeaweedFS).
 *
 * The patch: the emulator's debugger and the whole dev wallet listen on every interface where their
 * code says `:port`, and no flag moves them. Each is rewritten to `127.0.0.1:port`; a version whose
 * source no longer has that line stops the build instead of shipping a tool that listens everywhere.
 * Mailpit and SeaweedFS take their listen addresses as flags (given by their starters).
 *
 * The build runs as child processes the event loop waits for, never a synchronous one: a server that
 * builds on its first start keeps answering (503 `starting`) meanwhile.
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

interface SourcePatch {
  file: string;
  from: string;
  to: string;
}

interface Tool {
  module: string;
  version: string;
  /** The package to build, relative to the module's root. */
  pkg: string;
  binary: string;
  /** Where the tool listens on every interface, and the loopback-only line it becomes. */
  loopback?: SourcePatch;
  /** Further edits of the source, each replacing text that must occur exactly once. */
  patches?: SourcePatch[];
  /** Runs in the (writable) copy of the source before `go build`: makes what the binary embeds. */
  prepare?: (source: string) => Promise<void>;
}

/**
 * The emulator's admin API gains `POST /emulator/clock/advance?seconds=N`: every later block is
 * stamped N seconds further ahead (offsets add up; time never goes back). The emulator has no other
 * way to let time pass, and expiry on chain (offers' `expiresAt`) is tested with it.
 */
function emulatorClockPatches(): SourcePatch[] {
  const file = 'server/utils/emulator.go';
  return [
    { file, from: '\t"strings"\n', to: '\t"strings"\n\t"time"\n' },
    {
      file,
      from: '\trouter.HandleFunc("/emulator/newBlock", r.CommitBlock)\n',
      to: '\trouter.HandleFunc("/emulator/newBlock", r.CommitBlock)\n\trouter.HandleFunc("/emulator/clock/advance", r.AdvanceClock).Methods("POST")\n',
    },
    {
      file,
      from: 'func (m EmulatorAPIServer) ServeHTTP(',
      to: `type offsetClock struct{ offset time.Duration }

func (c offsetClock) Now() time.Time { return time.Now().UTC().Add(c.offset) }

var clockOffset time.Duration

func (m EmulatorAPIServer) AdvanceClock(w http.ResponseWriter, r *http.Request) {
\tseconds, err := strconv.ParseInt(r.URL.Query().Get("seconds"), 10, 64)
\tclocked, ok := m.emulator.(interface{ SetClock(emulator.Clock) })
\tif err != nil || seconds < 0 || !ok {
\t\tw.WriteHeader(http.StatusBadRequest)
\t\treturn
\t}
\tclockOffset += time.Duration(seconds) * time.Second
\tclocked.SetClock(offsetClock{clockOffset})
\tw.WriteHeader(http.StatusNoContent)
}

func (m EmulatorAPIServer) ServeHTTP(`,
    },
  ];
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
  patches: emulatorClockPatches(),
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
/** MIT; about 75 s to build, after its web UI (mailpitUi, below). */
const mailpitTool: Tool = {
  module: 'github.com/axllent/mailpit',
  version: 'v1.33.1',
  pkg: '.',
  binary: 'mailpit',
  prepare: (source) => mailpitUi(source),
};
/** Apache-2.0 (version 4.53); about 4.5 minutes to build, a 233 MB binary. */
const seaweedTool: Tool = {
  module: 'github.com/seaweedfs/seaweedfs',
  version: 'v0.0.0-20261109003541-7506e5f91cd6',
  pkg: './weed',
  binary: 'weed',
};

const root = resolve(import.meta.dirname, '..');
/** Bumped whenever the patches change, so an older build is made again. */
const PATCH_LEVEL = 'loopback-1+clock-1';

/** Tools built together, with the file in .tools/bin that records what was built. */
const groups = {
  flow: {
    tools: [emulatorTool, devWalletTool],
    stamp: 'versions.json',
    wanted: { emulator: emulatorTool.version, devWallet: devWalletTool.version, patches: PATCH_LEVEL },
  },
  mail: { tools: [mailpitTool], stamp: 'mailpit.json', wanted: { mailpit: mailpitTool.version, ui: 1 } },
  storage: { tools: [seaweedTool], stamp: 'weed.json', wanted: { weed: seaweedTool.version } },
};
export type ToolGroup = keyof typeof groups;

export class ToolchainError extends Error {}

export interface FlowTools {
  emulator: string;
  devWallet: string;
}

export interface GoToolsOptions {
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
              'Go is needed to build the embedded tools (the Flow emulator, Mailpit): install Go 1.26 or newer (https://go.dev/dl) and start again.',
            )
          : err,
      ),
    );
    child.once('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new ToolchainError(`${command} ${args.join(' ')} failed (exit ${code})`));
    });
  });
}

/**
 * Copies the module out of the (read-only) module cache, writable, makes it listen on loopback only
 * and applies its other patches.
 */
function patchedCopy(tool: Tool, moduleDir: string, srcDir: string): string {
  const copy = join(srcDir, `${tool.binary}@${tool.version}`);
  rmSync(copy, { recursive: true, force: true });
  cpSync(moduleDir, copy, { recursive: true });
  for (const patch of [...(tool.loopback ? [tool.loopback] : []), ...(tool.patches ?? [])]) {
    const file = join(copy, patch.file);
    const source = readFileSync(file, 'utf8');
    if (source.split(patch.from).length !== 2)
      throw new ToolchainError(
        `${tool.module}@${tool.version}: ${patch.file} no longer has ${patch.from} once (a patch)`,
      );
    chmodSync(file, 0o644);
    writeFileSync(file, source.replace(patch.from, patch.to));
  }
  return copy;
}

/**
 * Mailpit's web UI. The module holds its source only; its bundle (server/ui/dist, which the binary
 * embeds: without it the inbox at :8025 is a blank page) is built here with npm and esbuild, as
 * Mailpit's release build does (about 30 s). Its lockfile pins versions the npm registry here does
 * not all serve, so the UI's dependencies are installed from their ranges, without the linters, the
 * test tools and the API docs page (rapidoc), whose entry is left empty.
 */
async function mailpitUi(source: string) {
  const file = join(source, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    overrides?: unknown;
  };
  delete pkg.dependencies.rapidoc;
  delete pkg.overrides;
  const bundler = ['esbuild', 'esbuild-plugin-vue-next', 'esbuild-sass-plugin', '@vue/compiler-sfc'];
  pkg.devDependencies = Object.fromEntries(
    Object.entries(pkg.devDependencies).filter(([name]) => bundler.includes(name)),
  );
  writeFileSync(file, JSON.stringify(pkg, null, 2));
  rmSync(join(source, 'package-lock.json'), { force: true });
  writeFileSync(
    join(source, 'server', 'ui-src', 'docs.js'),
    '// The API docs page is left out of this build.\n',
  );
  const npm = { cwd: source };
  await run(
    'npm',
    ['install', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    npm,
  );
  await run('npm', ['run', 'package'], npm);
}

async function build(tool: Tool, dir: string, go: string, log: (line: string) => void) {
  const started = Date.now();
  log(`Building ${tool.module}@${tool.version} (first time only; a few minutes)…`);
  const { Dir } = JSON.parse(
    await run(go, ['mod', 'download', '-json', `${tool.module}@${tool.version}`], { capture: true }),
  ) as { Dir: string };
  const source = patchedCopy(tool, Dir, join(dir, 'src'));
  if (tool.prepare) {
    // The module cache's files are read-only, and the preparation writes beside them.
    await run('chmod', ['-R', 'u+w', source], {});
    await tool.prepare(source);
  }
  await run(go, ['build', '-o', join(dir, 'bin', tool.binary), tool.pkg], { cwd: source });
  // The copied source is only needed for the build (SeaweedFS's is large).
  rmSync(source, { recursive: true, force: true });
  log(`Built ${tool.module}@${tool.version} in ${Math.round((Date.now() - started) / 1000)} s`);
}

async function ensure(group: ToolGroup, dir: string, go: string, log: (line: string) => void) {
  const { tools, stamp, wanted } = groups[group];
  const bin = join(dir, 'bin');
  const paths = tools.map((tool) => join(bin, tool.binary));
  const built =
    paths.every((path) => existsSync(path)) &&
    existsSync(join(bin, stamp)) &&
    JSON.stringify(JSON.parse(readFileSync(join(bin, stamp), 'utf8'))) === JSON.stringify(wanted);
  if (!built) {
    mkdirSync(bin, { recursive: true });
    for (const tool of tools) await build(tool, dir, go, log);
    writeFileSync(join(bin, stamp), JSON.stringify(wanted));
  }
  return paths;
}

const builds = new Map<string, Promise<string[]>>();

/**
 * Builds a group of tools unless the pinned versions with the current patches are already there,
 * and answers their paths. Callers in one process share one build; a failed build is tried again
 * next time.
 */
function ensureGroup(group: ToolGroup, options: GoToolsOptions): Promise<string[]> {
  const dir = options.dir ?? join(root, '.tools');
  const key = `${group}:${dir}`;
  let pending = builds.get(key);
  if (!pending) {
    pending = ensure(group, dir, options.go ?? 'go', options.log ?? console.log);
    builds.set(key, pending);
    pending.catch(() => builds.delete(key));
  }
  return pending;
}

export async function ensureFlowTools(options: GoToolsOptions = {}): Promise<FlowTools> {
  const [emulator, devWallet] = await ensureGroup('flow', options);
  return { emulator: emulator!, devWallet: devWallet! };
}

/** The Mailpit binary. */
export async function ensureMailpit(options: GoToolsOptions = {}): Promise<string> {
  return (await ensureGroup('mail', options))[0]!;
}

/** The SeaweedFS binary (`weed`). */
export async function ensureSeaweed(options: GoToolsOptions = {}): Promise<string> {
  return (await ensureGroup('storage', options))[0]!;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const asked = process.argv.slice(2);
  const wantedGroups = (asked.length > 0 ? asked : ['flow', 'mail']) as ToolGroup[];
  try {
    for (const group of wantedGroups) {
      if (!(group in groups)) throw new ToolchainError(`No tool group ${group}: flow, mail or storage`);
      const started = Date.now();
      const paths = await ensureGroup(group, {});
      console.log(
        `${group} tools ready in ${Math.round((Date.now() - started) / 1000)} s: ${paths.join(', ')}`,
      );
    }
  } catch (err) {
    console.error(err instanceof ToolchainError ? err.message : err);
    process.exit(1);
  }
}
