import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// `npm run dev`: Vite serves the SPA on PORT (3000) with hot reload; the API runs beside it on API_PORT.
const webPort = Number(process.env.PORT ?? 3000);
const apiPort = Number(process.env.API_PORT ?? webPort + 1);

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    // FCL (~220 kB gzip) is one lazy chunk, loaded only when a wallet connects.
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        // The framework every page needs ships as one file: one request, one compression window.
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|use-sync-external-store|@tanstack|xstate|@xstate)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: webPort,
    strictPort: true,
    proxy: { '/api': `http://127.0.0.1:${apiPort}`, '/media': `http://127.0.0.1:${apiPort}` },
  },
  test: {
    // Both cores: the chain files run one at a time beside the API and web files.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'api',
          environment: 'node',
          include: ['tests/api/**/*.test.ts', 'tests/server/**/*.test.ts'],
          globalSetup: ['tests/setup/postgres.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // Against one real Flow emulator (tests/setup/flow.ts). Files run one at a time: they share
          // the admin key, whose sequence number allows one transaction in flight.
          name: 'chain',
          environment: 'node',
          include: ['tests/chain/**/*.test.ts'],
          globalSetup: ['tests/setup/flow.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: [
            'tests/unit/**/*.test.{ts,tsx}',
            'tests/views/**/*.test.{ts,tsx}',
            'model-tests/**/*.test.{ts,tsx}',
          ],
          setupFiles: ['tests/setup/dom.ts'],
        },
      },
    ],
  },
});
