import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

/**
 * Serves a sandbox's app on its own port (0: any free one) and resolves once it listens, with the
 * origin it is reached at; `close` ends open connections too, so a test's teardown never waits.
 */
export async function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
  host?: string,
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
