import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { Config } from './config';
import { type AppEnv, errorResponse, notFound } from './http';

/** Media files (seed artwork now, uploads later) live in `<dataDir>/media`. */
export const mediaDir = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'media');

/**
 * Serves /media/* from the media directory. Names carry a content hash, so files (whole or a range
 * of a video) are cached for a year; a missing file is the API's 404. The security headers
 * (nosniff, a policy that lets a file opened on its own run nothing) come from server/security.ts
 * for every answer of the app.
 */
export function mountMedia(app: Hono<AppEnv>, dir: string): void {
  mkdirSync(dir, { recursive: true });
  // Set on the finished answer: serveStatic builds its answer before calling onFound, so a header
  // set there is lost.
  app.get('/media/*', async (c, next) => {
    await next();
    if (c.res.status === 200 || c.res.status === 206) {
      c.res.headers.set('Cache-Control', 'public, max-age=31536000, immutable');
    }
  });
  app.get('/media/*', serveStatic({ root: dir, rewriteRequestPath: (path) => path.replace(/^\/media/, '') }));
  app.get('/media/*', (c) => errorResponse(c, notFound()));
}
