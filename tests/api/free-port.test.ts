import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../server/chain/emulator';

describe('freePort', () => {
  it('answers ports below the range the kernel gives outgoing connections, each one listenable', async () => {
    const ephemeral = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(10000);
      expect(port).toBeLessThan(ephemeral);
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((r) => server.close(r));
    }
  });

  it('never answers the same port twice in one process, also when asked at once', async () => {
    const one = await Promise.all(Array.from({ length: 50 }, () => freePort()));
    const more = [];
    for (let i = 0; i < 50; i++) more.push(await freePort());
    expect(new Set([...one, ...more]).size).toBe(100);
  });
});
