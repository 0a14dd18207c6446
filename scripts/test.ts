/**
 * `npm test`: everything, failing on the first broken step and on any skipped test:
 * lint and format (Biome) → production build → types (tsc) → the statechart diagrams in docs/machines
 * match the machines → vitest (API on PGlite and PostgreSQL, machines' model-based paths, views; the
 * chain tests on the Flow emulator run beside all of these) → transition coverage (100 % or fail) →
 * schemathesis over the OpenAPI document (0 failures; the journeys' server starts beside it) →
 * Playwright in Chromium.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import playwright from '../playwright.config';

const started = Date.now();
let passed = 0;
let failed = 0;

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const t0 = Date.now();
  console.log(`\n▶ ${title}: ${[command, ...args].join(' ')}`);
  const r = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.error(`✗ ${title} failed after ${seconds}s`);
    finish(1);
  }
  console.log(`✓ ${title} (${seconds}s)`);
}

function finish(code: number): never {
  const total = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\nnpm test: ${code === 0 ? 'all green' : 'FAILED'} in ${total}s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code);
}

function json<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

mkdirSync('test-results', { recursive: true });
rmSync('model-tests/.coverage', { recursive: true, force: true });

/**
 * What the run needs from the machine besides npm's packages (PostgreSQL comes from npm, see
 * scripts/postgres.ts): Debian's Chromium for the journeys (never a downloaded browser), openssl
 * for the Apple Pay test's certificates, Python's venv for schemathesis and pg_dump for the backup
 * test (Debian's postgresql: its server binaries of the same version are then the ones the test
 * cluster runs, so pg_dump is never older than the server it dumps). Missing ones are
 * installed with apt-get when this runs as root; otherwise the run stops at once with the command.
 */
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = [
  ...(existsSync(chromium) ? [] : ['chromium']),
  ...(spawnSync('openssl', ['version']).status === 0 ? [] : ['openssl']),
  // schemathesis is installed from PyPI into a virtual environment (scripts/contract.ts).
  ...(spawnSync('python3', ['-c', 'import ensurepip, venv']).status === 0 ? [] : ['python3-venv']),
  ...(spawnSync('pg_dump', ['--version']).status === 0 ? [] : ['postgresql']),
];
if (missing.length > 0) {
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0) {
    run(`installing ${missing.join(' and ')} from Debian`, 'sh', ['-c', command], {
      DEBIAN_FRONTEND: 'noninteractive',
    });
  } else {
    console.error(`✗ ${missing.join(' and ')} missing. Install with:\n  sudo ${command}`);
    finish(1);
  }
}

/**
 * The chain tests run one file at a time against one Flow emulator, mostly waiting for it: in a
 * vitest process of their own, started first, they run beside the checks and the other tests
 * instead of after them. Their output goes to a file, printed when they end.
 */
const chainLog = 'test-results/vitest-chain.log';
const chain = spawn(
  'npx',
  [
    'vitest',
    'run',
    '--project',
    'chain',
    '--reporter=dot',
    '--reporter=json',
    '--outputFile.json=test-results/vitest-chain.json',
  ],
  // A process group of its own, so that a failed step stops vitest and its workers with npx.
  { stdio: ['ignore', openSync(chainLog, 'w'), openSync(chainLog, 'a')], detached: true },
);
const chainDone = new Promise<number>((resolve) =>
  chain.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))),
);
/** Stops a process started in a group of its own, with everything it started. */
function stopGroup(pid: number | undefined) {
  try {
    process.kill(-pid!, 'SIGTERM');
  } catch {
    // already ended
  }
}
process.on('exit', () => stopGroup(chain.pid));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
console.log(`\n▶ chain tests, beside the next steps: output in ${chainLog}`);

run('lint and format', 'npx', ['biome', 'check', '.']);
run('production build', 'npm', ['run', '--silent', 'build']);

run('types', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
run('statechart diagrams up to date', 'npx', ['tsx', 'scripts/diagrams.ts', '--check']);

run('unit, API, model-based and view tests', 'npx', [
  'vitest',
  'run',
  '--project',
  'api',
  '--project',
  'web',
  '--project',
  'web-mocking',
  '--reporter=dot',
  '--reporter=json',
  '--outputFile.json=test-results/vitest.json',
]);
const chainStatus = await chainDone;
// Without the colours and the rows of progress dots.
const chainOutput = stripVTControlCharacters(readFileSync(chainLog, 'utf8'));
console.log(
  chainOutput
    .split('\n')
    .filter((line) => !/^[·×↓*-]+$/.test(line.trim()))
    .join('\n'),
);
if (chainStatus !== 0) {
  console.error('✗ chain tests failed');
  finish(1);
}
console.log('✓ chain tests');

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { name: string; startTime: number; endTime: number }[];
}
const reports = [
  json<VitestReport>('test-results/vitest.json'),
  json<VitestReport>('test-results/vitest-chain.json'),
];
// The slowest files (they run side by side, so their times add up to more than the phase's), to
// keep the suite within its budget.
const slowest = reports
  .flatMap((v) => v.testResults)
  .map((file) => ({ file: relative('.', file.name), ms: file.endTime - file.startTime }))
  .sort((a, b) => b.ms - a.ms)
  .slice(0, 10);
console.log(
  `slowest test files: ${slowest.map((f) => `${f.file} ${(f.ms / 1000).toFixed(0)} s`).join(', ')}`,
);
for (const v of reports) {
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  if (v.numPendingTests + v.numTodoTests > 0) {
    console.error(
      `✗ ${v.numPendingTests + v.numTodoTests} vitest tests were skipped or todo: every test must run`,
    );
    finish(1);
  }
}

run('transition coverage', 'npx', ['tsx', 'model-tests/coverage.ts']);
/**
 * The journeys' server (Playwright's webServer: the production build on a fresh data directory,
 * the Flow emulator, the sandboxes, the seeded world) takes about a minute to start, mostly waiting
 * for the emulator: started beside the contract run, it is ready by the time the journeys run, and
 * Playwright uses it. (Beside vitest it would slow the tests that time a whole server's work.)
 * Its output goes to a file outside test-results, which Playwright empties when it starts.
 */
const e2eLog = 'e2e-server.log';
const webServer = playwright.webServer as { command: string; url: string; env: Record<string, string> };
const e2eServer = spawn('sh', ['-c', webServer.command], {
  env: { ...process.env, ...webServer.env },
  stdio: ['ignore', openSync(e2eLog, 'w'), openSync(e2eLog, 'a')],
  detached: true,
});
process.on('exit', () => stopGroup(e2eServer.pid));
console.log(`\n▶ the journeys' server, starting beside the contract run: output in ${e2eLog}`);

run('the API against its OpenAPI document (schemathesis)', 'npx', ['tsx', 'scripts/contract.ts']);

/** Whether the journeys' server started above answers (waiting while it starts); false if it ended. */
async function e2eServerReady(): Promise<boolean> {
  for (const end = Date.now() + 600_000; Date.now() < end; ) {
    if (e2eServer.exitCode !== null || e2eServer.signalCode !== null) return false;
    if (
      await fetch(webServer.url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return true;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return false;
}
// Otherwise Playwright starts one itself, on a fresh data directory.
if (!(await e2eServerReady())) {
  console.log(`The journeys' server did not start (see ${e2eLog}): Playwright starts it again`);
  stopGroup(e2eServer.pid);
}
run('end-to-end journeys in Chromium', 'npx', ['playwright', 'test', '--reporter=line,json'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: 'test-results/playwright.json',
  VITRINE_E2E_SERVER: 'started',
});
const p = json<{ stats: { expected: number; unexpected: number; skipped: number; flaky: number } }>(
  'test-results/playwright.json',
);
passed += p.stats.expected;
failed += p.stats.unexpected + p.stats.flaky;
if (p.stats.skipped > 0) {
  console.error(`✗ ${p.stats.skipped} Playwright tests were skipped: every test must run`);
  finish(1);
}
/**
 * The journeys' server log holds no card number, bearer token or JWT (docs/operations.md, "Running
 * it"): the journeys pay with the test card 4242 4242 4242 4242 and sign in with tokens.
 */
const LEAKS = [/4242 ?4242/, /4242424242424242/, /Bearer /, /eyJ[\w-]{10,}/];
if (existsSync(e2eLog)) {
  const leaked = readFileSync(e2eLog, 'utf8')
    .split('\n')
    .filter((line) => LEAKS.some((pattern) => pattern.test(line)));
  if (leaked.length > 0) {
    console.error(`✗ the journeys' server log (${e2eLog}) holds secrets:\n${leaked.slice(0, 5).join('\n')}`);
    failed++;
  } else {
    console.log(`✓ the journeys' server log holds no card number, bearer token or JWT`);
    passed++;
  }
}
finish(failed === 0 ? 0 : 1);
