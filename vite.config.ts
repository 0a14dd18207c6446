import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';
import { mockingWebTests, webTests } from './tests/setup/projects.ts';

// `npm run dev`: Vite serves the SPA on PORT (3000) with hot reload; the API runs beside it on API_PORT.
const webPort = Number(process.env.PORT ?? 3000);
const apiPort = Number(process.env.API_PORT ?? webPort + 1);

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    // The server-side renderer (`vite build --ssr`, see src/entry-server.tsx) is read from disk by
    // the server only.
    !isSsrBuild &&
      // Every text file of the build also ships as .br (brotli, best quality) and .gz beside it: the
      // server sends the one the browser accepts without compressing anything per request.
      compression({
        algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
        include: /\.(js|css|html|svg|json|txt|webmanifest)$/,
        threshold: 1024,
        skipIfLargerOrEqual: true,
        logLevel: 'silent',
      }),
  ],
  // The server renders with the same modules; the public files are the browser build's.
  publicDir: isSsrBuild ? false : 'public',
  build: {
    outDir: isSsrBuild ? 'dist-ssr' : 'dist',
    sourcemap: true,
    target: 'es2022',
    // One stylesheet for every page (about 10 kB compressed): a page the server rendered is styled
    // from its first paint, whichever screen's components it shows.
    cssCodeSplit: false,
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
            // The small shared domain modules (enums, money, dates, routes, errors…), the shared view
            // components and the other few-hundred-byte modules every page needs ship as one file too:
            // one request instead of a dozen tiny ones on every page.
            // The card and phone checks (billing), the valibot schemas and date-fns stay with the
            // screens that use them.
            {
              name: 'app',
              test: (id: string) =>
                (/[\\/](domain|src[\\/]views[\\/]components)[\\/][^\\/]+\.tsx?$/.test(id) &&
                  !/[\\/](billing|time|validation)\.ts$/.test(id)) ||
                /[\\/](src[\\/]lazy|machines[\\/]ui)\.ts$|preload-helper/.test(id),
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
          include: webTests,
          exclude: [...mockingWebTests, '**/node_modules/**'],
          setupFiles: ['tests/setup/dom.ts'],
          // One module graph per worker instead of one per file: importing React, XState and the views
          // again for each of a hundred files took as long as the tests. The files share no module
          // state that matters: every test renders and starts its own actors, and the DOM is
          // cleaned after each test (tests/setup/dom.ts).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Files that replace a module with vi.mock get a module graph of their own: in a shared
          // graph the mock would miss a module another file loaded first, or leak into the next file.
          name: 'web-mocking',
          environment: 'jsdom',
          include: mockingWebTests,
          setupFiles: ['tests/setup/dom.ts'],
        },
      },
    ],
  },
}));
