import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The address of the client a request comes from, as the login throttle counts it. The socket's
 * peer is the client unless it is one of the configured trusted proxies; only then is
 * X-Forwarded-For read, from the right, skipping trusted proxies: the first address a trusted proxy
 * did not add itself is the client. Anyone can write X-Forwarded-For, so it is never read from a
 * client that is not a trusted proxy.
 */
export function trustedProxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const family = isIP(address ?? '') === 6 ? 'ipv6' : 'ipv4';
    if (!address || isIP(address) === 0) throw new Error(`VITRINE_TRUSTED_PROXIES: not an address: ${entry}`);
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  const plain = address.replace(/^::ffff:(?=\d+\.)/, '');
  const family = isIP(plain);
  if (family === 0) return false;
  return list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
}

export function socketAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function clientAddressResolver(
  trusted: BlockList,
  peer: (c: Context) => string = socketAddress,
): (c: Context) => string {
  return (c) => {
    const socket = peer(c);
    if (!isTrusted(trusted, socket)) return socket;
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      if (!isTrusted(trusted, hops[i]!)) return hops[i]!;
    }
    return hops[0] ?? socket;
  };
}
