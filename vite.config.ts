import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import MagicString from 'magic-string';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { defineConfig, type Plugin } from 'vitest/config';
import { canonicalLocation } from './server/origin.ts';
import { mockingWebTests, webTests } from './tests/setup/projects.ts';

// `npm run dev`: Vite serves the SPA on PORT (3000) with hot reload; the API runs beside it on API_PORT.
const webPort = Number(process.env.PORT ?? 3000);
const apiPort = Number(process.env.API_PORT ?? webPort + 1);

/** `npm run dev` keeps one origin too: a page asked for under another loopback name moves to PUBLIC_URL. */
const oneOrigin = (publicUrl: string): Plugin => ({
  name: 'vitrine-one-origin',
  configureServer(server) {
    server.middlewares.use((req, res, next) => {
      const location = req.url?.startsWith('/api/')
        ? null
        : canonicalLocation(req.url ?? '/', req.headers.host, publicUrl);
      if (!location) return next();
      res.writeHead(308, { location }).end();
    });
  },
});

/** A rewrite: every match of `pattern` becomes what `replace` makes of it. */
type Rewrite = [pattern: RegExp, replace: (match: string, ...groups: string[]) => string];

/**
 * The route tree of a build in fewer bytes (0.75 kB less, compressed, in every first load): the
 * generated tree's lists of children become arrays (the router reads only their values), a route's
 * id is left out where it is its path (the router takes the path then), and the path literal of a
 * route file's createFileRoute('/x'), which only TypeScript reads, is dropped. Each rewrite comes
 * with its source map, so the build's maps still point into the files as written.
 */
const routeTreeRewrites: Rewrite[] = [
  [
    /^const (\w+): \w+ =\s*\{\n((?:\s+\w+:\s+\w+,\n)+)\s*\}/gm,
    (_, name, body) => `const ${name} = [${body!.replace(/\s*\w+:\s+(\w+),\n/g, '$1,')}]`,
  ],
  [/( +)id: ('[^']*'),\n +path: \2,\n/g, (_, indent, path) => `${indent}path: ${path},\n`],
];
const routeFileRewrites: Rewrite[] = [[/createFileRoute\('[^']*'\)/g, () => 'createFileRoute()']];

const compactRouteTree = (): Plugin => ({
  name: 'vitrine-compact-route-tree',
  apply: 'build',
  // On the TypeScript source, before it is compiled.
  enforce: 'pre',
  transform(code, id) {
    const rewrites = id.endsWith('/src/routeTree.gen.ts')
      ? routeTreeRewrites
      : /\/src\/routes\/[^?]*\.tsx$/.test(id)
        ? routeFileRewrites
        : null;
    if (!rewrites) return;
    // Each pattern matches in the code as it came (MagicString.replace reads the original text).
    const edited = new MagicString(code);
    for (const [pattern, replace] of rewrites) edited.replace(pattern, replace);
    if (!edited.hasChanged()) return;
    return { code: edited.toString(), map: edited.generateMap({ hires: 'boundary', source: id }) };
  },
});

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    // The route tree from the files of src/routes (one per URL), written to src/routeTree.gen.ts on
    // every build and dev start; the file is kept in git, so tsc and the tests (which leave it alone)
    // read it without a build. Screens are split by hand (lazyRouteComponent in each route file).
    !process.env.VITEST &&
      tanstackRouter({ target: 'react', quoteStyle: 'single', semicolons: true, disableLogging: true }),
    compactRouteTree(),
    react(),
    oneOrigin(process.env.PUBLIC_URL ?? `http://localhost:${webPort}`),
    // The server-side renderer (`vite build --ssr`, see src/entry-server.tsx) is read from disk by
    // the server only.
    !isSsrBuild &&
      // Every text file of the build also ships as .br (brotli, best quality) and .gz beside it: the
      // server sends the one the browser accepts without compressing anything per request. Small
      // files too (the bundler's runtime helpers, 1 kB, every page loads): brotli halves them, and a
      // twin that would not be smaller is not written.
      compression({
        algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
        include: /\.(js|css|html|svg|json|txt|webmanifest)$/,
        threshold: 0,
        skipIfLargerOrEqual: true,
        logLevel: 'silent',
      }),
  ],
  // The server renders with the same modules; the public files are the browser build's.
  publicDir: isSsrBuild ? false : 'public',
  // The server's renderer carries its libraries (React among them) built for production, whatever
  // NODE_ENV the process that loads it has: React's development build renders many times slower.
  ...(isSsrBuild && {
    ssr: { noExternal: true },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  }),
  resolve: {
    // React 18 has useSyncExternalStore itself: the libraries' shim for older Reacts (@xstate/react,
    // TanStack's store) is left out of the bundle.
    alias: [
      {
        find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
        replacement: 'use-sync-external-store/with-selector',
      },
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'use-sync-external-store' },
    ],
  },
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
        // A chunk is named by its hash alone: every chunk's file name is written into the first
        // load (the preload lists of the screens, their import() calls), and the readable names cost
        // 0.5 kB there. The source maps still name each chunk's modules.
        chunkFileNames: 'assets/[hash].js',
        codeSplitting: {
          groups: [
            // What the first page runs ($initial: the entry's static imports, nothing a screen loads
            // later) ships as one file: the framework (React, TanStack Router, XState) and the app's
            // shell (router, routes, session, header and footer, services). As two files, the
            // framework's seldom changing would have kept it cached across releases, but every first
            // load paid a second response's headers and the worse compression of two halves (1.5 kB
            // of a 110 kB budget). The parts of those libraries only lazily loaded screens use stay
            // with those screens. src/main.tsx imports domain/constants, tiny and used by most
            // screens, so that it ships here rather than as a file of its own.
            { name: 'app', tags: ['$initial'], priority: 2 },
            // The domain modules and view components the screens share are grouped by the set of
            // screens that use them (entriesAware): a screen loads the shared code it runs, not one
            // file of everything (Home would carry the error texts, the form components and valibot).
            // The card and phone checks (billing), the valibot schemas and date-fns stay with the
            // screens that use them.
            {
              name: 'shared',
              test: (id: string) =>
                /[\\/](domain|src[\\/]views[\\/]components)[\\/][^\\/]+\.tsx?$/.test(id) &&
                !/[\\/](billing|time|validation)\.ts$/.test(id),
              entriesAware: true,
              priority: 1,
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
    // Both cores for the API and web files; the chain files run one at a time.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'api',
          environment: 'node',
          include: ['tests/api/**/*.test.ts', 'tests/server/**/*.test.ts'],
          globalSetup: ['tests/setup/postgres.ts', 'tests/setup/mailpit.ts'],
          // One module graph per worker instead of one per file: importing the server again for
          // each file took about 5 s. Every file builds its own app on its own database, and none
          // replaces a module.
          isolate: false,
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
          // `npm test` runs them in a vitest process of their own, beside the other projects.
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
