/**
 * `npm run contract`: schemathesis checks the server against its own OpenAPI document. A server
 * with the seeded world (no chain) and the provider sandboxes starts in this process on free
 * ports; schemathesis (from PyPI, in a virtual environment under .tools/, made on first use) then
 * runs every check it has over /api/openapi.json twice: anonymous, and signed in as the seeded
 * back-office operator, who may call every route. It prints the number of cases and fails on any
 * failure or server error. scripts/contract/hooks.py keeps the rules between fields that a document
 * cannot state; scripts/contract/schemathesis.toml names the operations that also refuse requests
 * for rules about the world (a token that must have been issued, a card the provider knows).
 *
 * `--install` only installs schemathesis. SCHEMATHESIS_MAX_EXAMPLES (default 12) sets the cases generated per operation and phase.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assetKinds, assetRules, mimeTypes } from '#domain/assets';
import { loadConfig } from '../server/config';
import { extensionFormats } from '../server/images/store';
import { SEED_ADMIN_EMAIL, SEED_PASSWORD } from '../server/seed/world';
import { start } from '../server/start';

const VERSION = '4.32.5';
const venv = resolve('.tools/schemathesis');
const bin = join(venv, 'bin', 'schemathesis');

/** The pinned schemathesis in .tools/schemathesis, installed from PyPI when missing. */
function ensureSchemathesis() {
  const have =
    existsSync(bin) && spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.includes(VERSION);
  if (have) return;
  console.log(`Installing schemathesis ${VERSION} from PyPI into ${venv}`);
  const python = process.env.PYTHON ?? 'python3';
  for (const [command, args] of [
    [python, ['-m', 'venv', venv]],
    [
      join(venv, 'bin', 'pip'),
      ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${VERSION}`],
    ],
  ] as const) {
    const r = spawnSync(command, args, { stdio: 'inherit' });
    if (r.status !== 0) {
      console.error(
        `✗ ${command} ${args.join(' ')} failed: schemathesis needs Python 3.10+ with venv (apt-get install python3-venv)`,
      );
      process.exit(1);
    }
  }
}

/**
 * The tables scripts/contract/hooks.py reads, from the server's own code: for each asset kind, the
 * image types it takes and the file extensions that name each type.
 */
const rules = {
  uploads: Object.fromEntries(
    assetKinds.map((kind) => [
      kind,
      Object.fromEntries(
        assetRules[kind].formats.map((format) => [
          mimeTypes[format],
          Object.keys(extensionFormats).filter((ext) => extensionFormats[ext] === format),
        ]),
      ),
    ]),
  ),
};

/** The operations that only work with a chain (503 without one): tests/chain runs them against the emulator. */
const CHAIN_ONLY = [
  'GET /chain/config',
  'POST /users/wallets/actions/verify-account-proof',
  'POST /fusd-orders',
  'POST /offers/actions/record',
];

/** Runs schemathesis; answers its exit code and the number of cases it reports. */
function schemathesis(who: string, args: string[]): Promise<{ code: number; cases: number }> {
  return new Promise((done) => {
    let output = '';
    const child = spawn(bin, args, {
      env: {
        ...process.env,
        NO_COLOR: '1',
        PYTHONPATH: resolve('scripts/contract'),
        SCHEMATHESIS_HOOKS: 'hooks',
        VITRINE_CONTRACT_RULES: JSON.stringify(rules),
      },
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
    }
    child.on('close', (code) => {
      // Printed whole when it ends: the two runs go side by side, and their lines must not mix.
      process.stdout.write(`\n▶ schemathesis, ${who}\n${output}`);
      const cases = [...output.matchAll(/(\d+) generated/g)].reduce((sum, m) => sum + Number(m[1]), 0);
      done({ code: code ?? 1, cases });
    });
  });
}

ensureSchemathesis();
// `--install`: only make the virtual environment (what .ci/run does before the timed run).
if (process.argv.includes('--install')) process.exit(0);
const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-contract-'));
const server = await start(
  loadConfig({
    ...process.env,
    PORT: '0',
    VITRINE_DATA_DIR: dataDir,
    DATABASE_URL: 'memory://',
    // No chain: starting the emulator and minting the seeded NFTs would cost a minute of the test
    // budget, and the three operations that need the chain are checked against it in tests/chain.
    FLOW_EMULATOR: 'off',
    CHECKOUT_COM_SANDBOX_PORT: '0',
    COINBASE_COMMERCE_SANDBOX_PORT: '0',
    WERT_SANDBOX_PORT: '0',
    VERIFF_SANDBOX_PORT: '0',
    // Mailpit listens on fixed ports (the journeys' server starts beside this one): no email leaves.
    MAIL: 'off',
    NODE_ENV: 'production',
    VITRINE_SEED: 'on',
    // Every generated sign-up comes from this one address: the sign-up delay of an address (its own
    // test is tests/api/holds.test.ts) would otherwise answer most of them 429.
    VITRINE_SIGNUP_FREE_PER_HOUR: '100000',
  }),
  { log: { info() {}, warn() {}, error: console.error } as never },
);
let failed = false;
try {
  await server.ready;
  const origin = `http://127.0.0.1:${server.port}`;
  const login = await fetch(`${origin}/api/auth/logins`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: SEED_ADMIN_EMAIL, password: SEED_PASSWORD }),
  });
  const { authToken } = (await login.json()) as { authToken?: string };
  if (!authToken) throw new Error(`Signing in as ${SEED_ADMIN_EMAIL} failed (${login.status})`);
  const common = [
    '--config-file',
    resolve('scripts/contract/schemathesis.toml'),
    'run',
    `${origin}/api/openapi.json`,
    '--checks',
    'all',
    '--max-examples',
    process.env.SCHEMATHESIS_MAX_EXAMPLES ?? '12',
    // One worker: Python 3.11's ast module is not thread-safe, and Hypothesis parses the source of
    // its filters while it describes them (an "AST constructor recursion depth mismatch" otherwise).
    '--workers',
    '1',
    '--seed',
    '1',
    '--suppress-health-check',
    'all',
    ...CHAIN_ONLY.flatMap((name) => ['--exclude-name', name]),
  ];
  // The anonymous and the signed-in run go side by side: each is one Python process (one worker,
  // above), so together they keep both cores of a small machine busy.
  const runs = await Promise.all([
    schemathesis('anonymous', common),
    // Signing out would end the run's own session: the operator stays signed in.
    schemathesis('signed in', [
      ...common,
      '--header',
      `Authorization: Bearer ${authToken}`,
      '--exclude-path',
      '/auth/sessions/current',
    ]),
  ]);
  const cases = runs.reduce((sum, r) => sum + r.cases, 0);
  if (runs.some((r) => r.code !== 0)) failed = true;
  console.log(`\nschemathesis: ${cases} cases, ${failed ? 'FAILED' : 'no failures'}`);
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
