import { defineConfig } from '@playwright/test';

/**
 * End-to-end journeys in Debian's Chromium (never a downloaded browser) against the production
 * server of `npm start` on a fresh data directory, on exactly the address the README gives
 * (http://localhost:3000) with `npm start`'s defaults: the sandboxes, the Flow emulator and its dev
 * wallet on their own default ports, return links built from the default origin. So the journeys
 * need those ports free: a running `npm start` is stopped first.
 */
const port = 3000;
const dataDir = process.env.E2E_DATA_DIR ?? '.e2e-data';

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
    // The README's address: a newcomer's browser opens exactly this.
    baseURL: `http://localhost:${port}`,
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
    // The first start on a machine builds the Flow emulator (see scripts/go-tools.ts).
    timeout: 600_000,
    env: {
      PORT: String(port),
      VITRINE_DATA_DIR: dataDir,
      NODE_ENV: 'production',
      VITRINE_DEV_OUTBOX: '1',
      // The utility token is on in the journeys (a flag, off by default): its EVM node (anvil) on
      // its default port.
      NFM_PAYMENTS: 'on',
      // The journeys are some forty people signing up within minutes, all from 127.0.0.1: in the
      // world they come from forty addresses. One address's sign-up delay is tested in
      // tests/api/holds.test.ts.
      VITRINE_SIGNUP_FREE_PER_HOUR: '1000',
    },
  },
});
