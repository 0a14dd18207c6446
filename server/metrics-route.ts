import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { socketAddress } from './auth/client-address';
import type { Config } from './config';
import { errorResponse, forbidden, notFound, unauthorized } from './http';
import type { Metrics } from './metrics';

/**
 * Who may read GET /metrics:
 * - with METRICS_TOKEN set, a request with `Authorization: Bearer <that token>`;
 * - in the embedded world (VITRINE_EMBEDDED on), a loopback caller: the socket's peer is a
 *   loopback address and the request carries no forwarding header (X-Forwarded-For, Forwarded,
 *   X-Real-IP), since a reverse proxy on the same machine connects from loopback on behalf of others.
 * Anyone else: 401 (WWW-Authenticate: Bearer) when a token is set; 403 in the embedded world
 * without one; 404 in a deployment without one (it has no metrics endpoint).
 */
export type MetricsAccess = NonNullable<Config['metrics']>;

const digest = (text: string) => createHash('sha256').update(text).digest();

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer ([^\s]+)$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

const LOOPBACK = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

export function isLoopbackCaller(c: Context, peer: (c: Context) => string = socketAddress): boolean {
  const forwarded = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some((h) => c.req.header(h) !== undefined);
  return !forwarded && LOOPBACK.test(peer(c));
}

export function metricsHandler(
  access: MetricsAccess | undefined,
  metrics: Metrics,
  peer?: (c: Context) => string,
) {
  const { token, loopback = false } = access ?? {};
  return async (c: Context) => {
    const allowed =
      (token && bearerMatches(c.req.header('authorization'), token)) ||
      (loopback && isLoopbackCaller(c, peer));
    if (!allowed) {
      if (token) {
        c.header('WWW-Authenticate', 'Bearer realm="metrics"');
        return errorResponse(c, unauthorized('A valid metrics token is required'));
      }
      return errorResponse(c, loopback ? forbidden() : notFound());
    }
    const { text, contentType } = await metrics.scrape();
    return c.body(text, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  };
}
