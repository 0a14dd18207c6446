import { relative, sep } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Hono } from 'hono';
import type { AppEnv } from './http';

/**
 * Serves the built SPA: files as they are, hashed /assets/* cached for a year, anything else
 * (index.html, and the history fallback for client routes) revalidated on every load.
 */
export function mountSpa(app: Hono<AppEnv>, root: string): void {
  const cache = (path: string, c: Context) => {
    const hashed = relative(root, path).startsWith(`assets${sep}`);
    c.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
  };
  app.use('*', serveStatic({ root, onFound: cache }));
  app.get('*', serveStatic({ root, path: 'index.html', onFound: cache }));
}
