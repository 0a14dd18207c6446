import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddressResolver, trustedProxyList } from '../../server/auth/client-address';
import { loadConfig } from '../../server/config';

/** Resolves the client address of one request that came from socket peer `peer`. */
async function resolve(trusted: string[], peer: string, forwardedFor?: string): Promise<string> {
  const resolver = clientAddressResolver(trustedProxyList(trusted), () => peer);
  const app = new Hono();
  app.get('/', (c) => c.text(resolver(c)));
  const res = await app.request('/', { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
  return res.text();
}

describe('client address for the login throttle', () => {
  it('ignores X-Forwarded-For from a client that is not a trusted proxy (the default: none)', async () => {
    expect(await resolve([], '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7');
    expect(await resolve(['10.0.0.1'], '198.51.100.7', '203.0.113.9')).toBe('198.51.100.7');
  });

  it('reads the address a trusted proxy saw, from the right, skipping trusted hops', async () => {
    expect(await resolve(['10.0.0.1'], '10.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    // The client wrote a fake first hop itself; the proxy appended the real peer.
    expect(await resolve(['10.0.0.0/8'], '10.0.0.1', '1.2.3.4, 203.0.113.9, 10.0.0.2')).toBe('203.0.113.9');
    expect(await resolve(['127.0.0.1'], '::ffff:127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    expect(await resolve(['10.0.0.1'], '10.0.0.1')).toBe('10.0.0.1');
  });

  it('reads VITRINE_TRUSTED_PROXIES as a list and refuses what is not an address', () => {
    const config = loadConfig({
      VITRINE_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1',
      VITRINE_DATA_DIR: '/tmp/vitrine-cfg',
    });
    expect(config.trustedProxies).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => trustedProxyList(['proxy.example'])).toThrow(/not an address/);
  });
});
