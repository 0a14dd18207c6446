import { describe, expect, it } from 'vitest';
import { databases, flowAddress, register, useTestApp } from './support/harness';

describe.each(databases)('development helpers on %s', (database) => {
  const t = useTestApp(database);

  it('has no outbox: emails go to the mail server (the embedded Mailpit), as in production', async () => {
    expect((await t.request('GET', '/api/dev/outbox')).status).toBe(404);
  });

  it('has no identity approval: verification goes through the identity provider', async () => {
    const account = await register(t);
    const res = await t.request('POST', '/api/dev/kyc/approvals', { body: { email: account.email } });
    expect(res.status).toBe(404);
  });

  it('mints test NFTs only on the local emulator (503 without a chain), after validating, and no FUSD', async () => {
    const walletAddress = flowAddress();
    const nft = await t.request('POST', '/api/dev/nfts', { body: { walletAddress } });
    expect(nft.status).toBe(503);
    const bad = await t.request('POST', '/api/dev/nfts', { body: { walletAddress, royaltyPercent: 80 } });
    expect(bad.status).toBe(400);
    // FUSD comes as in production: a crypto top-up.
    expect((await t.request('POST', '/api/dev/fusd', { body: { walletAddress, amount: 5000 } })).status).toBe(
      404,
    );
  });
});

describe.each(databases)('development helpers in production on %s', (database) => {
  const t = useTestApp(database, { production: true, nodeEnv: 'production', devTools: false });

  it('do not exist', async () => {
    for (const path of ['/api/dev/kyc/approvals', '/api/dev/nfts']) {
      expect((await t.request('POST', path, { body: {} })).status).toBe(404);
    }
  });
});
