import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

/**
 * Serves a sandbox's app on its own port (0: any free one) and resolves once it listens, with the
 * origin it is reached at; `close` ends open connections too, so a test's teardown never waits.
 * A sandbox answers anyone with its published keys, so it listens on 127.0.0.1 only unless given
 * another host.
 */
export async function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
  host = '127.0.0.1',
): Promise<{ origin: string; port: number; close(): Promise<void> }> {
  const server = serve({ fetch, port, hostname: host }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Posts one webhook delivery and answers the receiver's HTTP status, 0 when it gave none (refused,
 * timed out). The body is read to the end so the connection is free again.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs = 10_000,
): Promise<number> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  } catch {
    return 0;
  }
}

/** Text safe inside HTML (the hosted pages echo names and URLs). */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Whether a value is an absolute http(s) URL (redirect and callback URLs). */
export function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A Map that forgets its oldest entries beyond `max` (a sandbox keeps its state in memory). */
export function bounded<K, V>(max: number): Map<K, V> {
  const map = new Map<K, V>();
  const set = map.set.bind(map);
  map.set = (key, value) => {
    set(key, value);
    if (map.size > max) map.delete(map.keys().next().value as K);
    return map;
  };
  return map;
}
