import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { AppEnv } from './http';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built SPA: each text file as the .br or .gz the build wrote beside it when the browser
 * accepts that encoding (else as it is), hashed /assets/* cached for a year, anything else
 * revalidated on every load. Other GET paths without a file (client routes) answer index.html;
 * a missing asset stays a 404.
 */
export function mountSpa(app: Hono<AppEnv>, root: string): void {
  const index = serveStatic({ root, path: 'index.html', precompressed: true });
  app.get('*', async (c, next) => {
    await next();
    if (c.res.status === 200) {
      c.res.headers.set('Cache-Control', c.req.path.startsWith('/assets/') ? IMMUTABLE : 'no-cache');
    }
  });
  app.get('*', serveStatic({ root, precompressed: true }));
  app.get('*', (c, next) => (c.req.path.startsWith('/assets/') ? next() : index(c, next)));
}
