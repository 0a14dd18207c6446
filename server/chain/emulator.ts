import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ensureFlowTools } from '../../scripts/go-tools';

/**
 * The local Flow emulator (and, for the browser, the FCL dev wallet), started and stopped by the
 * project. Every port of both listens on 127.0.0.1 only: the REST, gRPC and admin APIs by `--host`, the
 * debugger and the dev wallet (which holds the service key) by the patch scripts/go-tools.ts builds
 * them with. With a data directory its state persists in `<dataDir>/flowdb`.
 */
export const EMULATOR_SERVICE_ADDRESS = '0xf8d6e0586b0a20c7';
/** The service key the FCL dev wallet ships with (local development only); the emulator is started with it. */
export const EMULATOR_SERVICE_KEY = 'f8e188e8af0b8b414be59c4a1a15cc666c898fb34d94156e9b51e18bfde754a5';

export interface EmulatorOptions {
  /** Persist state here (`<dataDir>/flowdb`); without it the chain lives in memory. */
  dataDir?: string;
  restPort?: number;
  grpcPort?: number;
  adminPort?: number;
  debuggerPort?: number;
  /** Start the FCL dev wallet too, on this port (it expects the REST API on 8888). */
  devWalletPort?: number;
  log?: (line: string) => void;
}

export interface RunningEmulator {
  accessNode: string;
  restPort: number;
  /** The emulator's admin API (`/emulator/...`). */
  adminApi: string;
  devWallet?: string;
  stop(): Promise<void>;
}

/**
 * The first port the kernel hands out to outgoing connections and to listen(0)
 * (net.ipv4.ip_local_port_range; 32768 on Linux by default).
 */
function ephemeralStart(): number {
  try {
    const first = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    if (Number.isInteger(first) && first > 11000) return first;
  } catch {
    // not Linux: the IANA dynamic range starts at 49152
    return 49152;
  }
  return 32768;
}

function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Where this process's next port search starts: spread by process id, so parallel test workers look in different places. */
let cursor = -1;

/**
 * A free TCP port on 127.0.0.1, taken from below the kernel's ephemeral range: a port from that
 * range can be given to an outgoing connection between this answer and the child's listen (a
 * process that makes many connections while it starts, such as SeaweedFS, then fails to bind).
 * The process walks that range in order, so it never answers the same port twice (two ports asked
 * for one child, such as Mailpit's SMTP and web ports, always differ), and each process starts at
 * its own place in it.
 */
export async function freePort(): Promise<number> {
  const top = ephemeralStart();
  const bottom = 10000;
  const span = top - bottom;
  if (cursor < 0) cursor = (process.pid * 7919) % span;
  for (let tries = 0; tries < 500; tries++) {
    const port = bottom + (cursor++ % span);
    if (await listensOn(port)) return port;
  }
  throw new Error(`no free port between ${bottom} and ${top} on 127.0.0.1`);
}

async function waitFor(url: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const log = options.log ?? (() => {});
  const tools = await ensureFlowTools({ log });
  const restPort = options.restPort ?? (await freePort());
  const adminPort = options.adminPort ?? (await freePort());
  const args = [
    '--host',
    '127.0.0.1',
    '--rest-port',
    String(restPort),
    '--port',
    String(options.grpcPort ?? (await freePort())),
    '--admin-port',
    String(adminPort),
    '--debugger-port',
    String(options.debuggerPort ?? (await freePort())),
    '--service-priv-key',
    EMULATOR_SERVICE_KEY,
    '--setup-vm-bridge=false',
  ];
  if (options.dataDir) {
    const dbpath = join(options.dataDir, 'flowdb');
    mkdirSync(dbpath, { recursive: true });
    args.push('--persist', '--dbpath', dbpath);
  }
  const emulator = spawn(tools.emulator, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  emulator.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const accessNode = `http://127.0.0.1:${restPort}`;
  try {
    await waitFor(`${accessNode}/v1/network/parameters`, emulator, 60_000);
  } catch (err) {
    await stopProcess(emulator);
    throw new Error(`The Flow emulator did not start: ${(err as Error).message}\n${stderr}`);
  }
  log(`Flow emulator ready at ${accessNode}`);

  let wallet: ChildProcess | undefined;
  let devWallet: string | undefined;
  if (options.devWalletPort) {
    wallet = spawn(tools.devWallet, ['--port', String(options.devWalletPort)], { stdio: 'ignore' });
    devWallet = `http://127.0.0.1:${options.devWalletPort}`;
    await waitFor(`${devWallet}/`, wallet, 30_000);
    log(`FCL dev wallet ready at ${devWallet}`);
  }

  return {
    accessNode,
    restPort,
    adminApi: `http://127.0.0.1:${adminPort}`,
    devWallet,
    async stop() {
      await Promise.all([wallet ? stopProcess(wallet) : undefined, stopProcess(emulator)]);
    },
  };
}

/**
 * Lets `seconds` pass on the emulator: every block from the next one is stamped that much later
 * (the admin route scripts/go-tools.ts patches in), and a new block is committed so that scripts
 * see the new time at once.
 */
export async function advanceEmulatorClock(adminApi: string, seconds: number): Promise<void> {
  const res = await fetch(`${adminApi}/emulator/clock/advance?seconds=${seconds}`, { method: 'POST' });
  if (!res.ok) throw new Error(`the emulator did not move its clock (${res.status})`);
  const block = await fetch(`${adminApi}/emulator/newBlock`, { method: 'POST' });
  if (!block.ok) throw new Error(`the emulator did not commit a block (${block.status})`);
}
