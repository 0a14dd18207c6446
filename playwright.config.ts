import { defineConfig } from '@playwright/test';

/**
 * End-to-end journeys in Debian's Chromium (never a downloaded browser) against the production
 * server of `npm start` on a fresh data directory.
 */
const port = Number(process.env.E2E_PORT ?? 3310);
const dataDir = process.env.E2E_DATA_DIR ?? `.e2e-data-${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  reporter: process.env.CI ? 'line' : 'list',
  outputDir: 'test-results',
  use: {
    // 127.0.0.1, the FCL dev wallet's own site: its iframe may then use its storage.
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'only-on-failure',
    // A failed journey keeps its trace: every action with the page's DOM before and after it. The
    // trace's screencast (a JPEG of every frame the page paints) is left out: recorded for every
    // journey and thrown away when it passes, it cost about a tenth of the run's time.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `rm -rf ${dataDir} && npx tsx server/main.ts`,
    url: `http://localhost:${port}/api/health`,
    // `npm test` starts this server itself, early, so that its minute of starting (the emulator,
    // the seeded world) passes while the other tests run (scripts/test.ts); alone, Playwright
    // starts it.
    reuseExistingServer: process.env.VITRINE_E2E_SERVER === 'started',
    // The first start on a machine builds the Flow emulator (see scripts/flow-tools.ts).
    timeout: 600_000,
    env: {
      PORT: String(port),
      VITRINE_DATA_DIR: dataDir,
      NODE_ENV: 'production',
      VITRINE_DEV_OUTBOX: '1',
      // The card provider sends the buyer back here after 3-D Secure: the origin the browser uses.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // The embedded card sandbox on its own port, apart from a developer's `npm start` (8790).
      CHECKOUT_COM_SANDBOX_PORT: String(port + 1),
      COINBASE_COMMERCE_SANDBOX_PORT: String(port + 2),
      WERT_SANDBOX_PORT: String(port + 3),
      // The utility token is on in the journeys: its EVM node (anvil) on its own port.
      NFM_PAYMENTS: 'on',
      EVM_NODE_PORT: String(port + 4),
      VERIFF_SANDBOX_PORT: String(port + 5),
      // The journeys are some forty people signing up within minutes, all from 127.0.0.1: in the
      // world they come from forty addresses. One address's sign-up delay is tested in
      // tests/api/holds.test.ts.
      VITRINE_SIGNUP_FREE_PER_HOUR: '1000',
    },
  },
});
