import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { Config } from './config';
import { type AppEnv, errorResponse, notFound } from './http';

/** Media files (seed artwork now, uploads later) live in `<dataDir>/media`. */
export const mediaDir = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'media');

/**
 * Serves /media/* from the media directory. Names carry a content hash, so files are cached for a
 * year; a missing file is the API's 404.
 */
export function mountMedia(app: Hono<AppEnv>, dir: string): void {
  mkdirSync(dir, { recursive: true });
  app.get(
    '/media/*',
    serveStatic({
      root: dir,
      rewriteRequestPath: (path) => path.replace(/^\/media/, ''),
      onFound: (_path, c) => {
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  app.get('/media/*', (c) => errorResponse(c, notFound()));
}
