import type { MiddlewareHandler } from 'hono';

/**
 * One origin for the whole product: the canonical one (PUBLIC_URL, by default
 * http://localhost:<PORT>, the address the README gives). A browser may reach the same server
 * under another name of this machine (127.0.0.1, [::1], 0.0.0.0, a *.localhost name); there it
 * would have another session storage (signed out), and the providers' return links, which are
 * built from the canonical origin, would take it elsewhere. Such a request is redirected to the
 * canonical origin with its path and query.
 */

/** Host names that always mean this machine. */
const LOOPBACK = /^(?:localhost|[a-z0-9-]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1|0\.0\.0\.0)$/i;

export const isLoopbackName = (hostname: string) => LOOPBACK.test(hostname);

const portOf = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

/**
 * Where a request for `requestUrl` arriving with the Host header `host` belongs, or null when it
 * is already there. Only the same server reached by another loopback name moves: same port,
 * another local host name. Any other host (a proxy's, a real domain) is left alone.
 */
export function canonicalLocation(
  requestUrl: string,
  host: string | undefined,
  publicUrl: string,
): string | null {
  if (!host) return null;
  const canonical = new URL(publicUrl);
  let asked: URL;
  try {
    asked = new URL(`${canonical.protocol}//${host}`);
  } catch {
    return null;
  }
  if (asked.host === canonical.host) return null;
  if (!isLoopbackName(asked.hostname) || !isLoopbackName(canonical.hostname)) return null;
  if (portOf(asked) !== portOf(canonical)) return null;
  const url = new URL(requestUrl, canonical);
  return `${canonical.origin}${url.pathname}${url.search}`;
}

/**
 * Redirects pages, files and media asked for under another loopback name (308, so the method and
 * body would stay). The API is left alone: a program (a health check, a provider's webhook) may
 * call it by any name, and no page of the product runs on another origin to call it from.
 */
export function canonicalOrigin(publicUrl: string): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.path === '/api' || c.req.path.startsWith('/api/')) return next();
    const location = canonicalLocation(c.req.url, c.req.header('host'), publicUrl);
    if (!location) return next();
    return c.redirect(location, 308);
  };
}

/**
 * The FCL dev wallet's address as the browser should use it: under the same host name as the
 * product (localhost beside localhost), so that the wallet's frame is same-site with the page and
 * may use its storage (a frame of 127.0.0.1 in a page of localhost is a third-party frame, whose
 * localStorage the browser refuses). The wallet listens on 127.0.0.1, which every localhost name
 * reaches; a product on any other name gets the wallet at 127.0.0.1.
 */
export function devWalletUrl(publicUrl: string, port: number): string {
  const { hostname } = new URL(publicUrl);
  const local = /^(?:localhost|[a-z0-9-]+\.localhost)$/i.test(hostname);
  return `http://${local ? hostname : '127.0.0.1'}:${port}`;
}
