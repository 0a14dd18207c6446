import type { MiddlewareHandler } from 'hono';
import type { Log } from './clock';
import { requestIdOf, withContext } from './context';
import { IMMUTABLE } from './http';
import type { Metrics } from './metrics';

/**
 * Every request: its id (X-Request-Id, kept when the client's is sane, else a new one; sent back
 * on the answer, but for an immutable file's) is the context of everything done for it (log lines,
 * jobs it queues); when it is answered, its duration goes to the metrics under its route's pattern
 * and one access line is logged: method, route pattern, status, duration (never the path's query, a
 * body or a header).
 */
export function observeRequests(log: Log, metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const requestId = requestIdOf(c.req.header('x-request-id'));
    const started = performance.now();
    await withContext({ requestId }, async () => {
      await next();
      // An immutable file (a hashed script, a stored image, a share image) is the same answer for
      // everyone, and a first load fetches dozens: it goes without the id (its access line still
      // carries it).
      if (c.res.headers.get('Cache-Control') !== IMMUTABLE) {
        try {
          c.res.headers.set('X-Request-Id', requestId);
        } catch {
          // An answer with immutable headers (a fetched one) is copied.
          c.res = new Response(c.res.body, c.res);
          c.res.headers.set('X-Request-Id', requestId);
        }
      }
      const seconds = (performance.now() - started) / 1000;
      // The pattern of the route that answered (`/api/orders/:id`, `/media/*`, `/*` for no route).
      const route = c.req.routePath;
      metrics.observeRequest(route, c.req.method, c.res.status, seconds);
      log.info('request', {
        method: c.req.method,
        route,
        status: c.res.status,
        duration_ms: Math.round(seconds * 1000),
      });
    });
  };
}
