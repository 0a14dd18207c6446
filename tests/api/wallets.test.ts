import { describe, expect, it } from 'vitest';
import { databases, flowAddress, useTestApp } from './support/harness';

/** Wallet routes without a chain (FLOW_EMULATOR=off); with one: tests/chain/wallets.test.ts. */
describe.each(databases)('wallet connection without a chain on %s', (database) => {
  const t = useTestApp(database);

  it('issues single-use nonces of 32 bytes', async () => {
    const a = await t.request('POST', '/api/users/wallets/actions/request-account-proof');
    const b = await t.request('POST', '/api/users/wallets/actions/request-account-proof');
    expect(a.status).toBe(201);
    expect(a.body.nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(a.body.nonce).not.toBe(b.body.nonce);
  });

  it('has no chain config for the browser (503)', async () => {
    const res = await t.request('GET', '/api/chain/config');
    expect(res.status).toBe(503);
  });

  it('cannot verify a proof and says so with 503', async () => {
    const { body: issued } = await t.request('POST', '/api/users/wallets/actions/request-account-proof');
    const res = await t.request('POST', '/api/users/wallets/actions/verify-account-proof', {
      body: { walletAddress: flowAddress(), keyId: 0, signature: 'ab'.repeat(64), nonce: issued.nonce },
    });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('unavailable');
  });
});
