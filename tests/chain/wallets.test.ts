import { WalletUtils } from '@onflow/fcl';
import { describe, expect, it } from 'vitest';
import { readSessionToken } from '#domain/token';
import { NONCE_TTL_MS } from '../../server/auth/wallet-proof';
import { createAccount } from '../../server/chain/accounts';
import type { AccountKey } from '../../server/chain/config';
import { generateKeyPair, signMessage } from '../../server/chain/signer';
import { newAccount, useTestApp } from '../api/support/harness';
import { chainClient } from './support';

/**
 * Wallet connection against the real emulator: nonce, account proof checked by FCLCrypto, login of
 * the account holding the wallet, or a wallet proof to register it.
 */
const client = chainClient();
const REQUEST = '/api/users/wallets/actions/request-account-proof';
const VERIFY = '/api/users/wallets/actions/verify-account-proof';

describe('wallet connection with an account proof', () => {
  const t = useTestApp('pglite', {}, { chainClient: client });

  async function nonce(): Promise<string> {
    const res = await t.request('POST', REQUEST);
    expect(res.status).toBe(201);
    expect(res.body.appIdentifier).toBe('Vitrine');
    expect(res.body.nonce).toMatch(/^[0-9a-f]{64}$/);
    return res.body.nonce;
  }

  /** What a wallet answers: the account proof of `nonce`, signed with the account's key. */
  function proof(wallet: AccountKey, n: string, signingKey = wallet.privateKey) {
    const message = WalletUtils.encodeAccountProof({
      address: wallet.address,
      nonce: n,
      appIdentifier: 'Vitrine',
    });
    return {
      walletAddress: wallet.address,
      keyId: wallet.keyIndex,
      signature: signMessage(signingKey, message),
      nonce: n,
    };
  }

  it('a new wallet gets a wallet proof, registers with it, then logs in by proof alone', async () => {
    const wallet = await createAccount(client);
    const first = await t.request('POST', VERIFY, { body: proof(wallet, await nonce()) });
    expect(first.status).toBe(200);
    expect(first.body.authToken).toBeNull();
    expect(first.body.walletProof).toEqual(expect.any(String));

    const registered = await t.request('POST', '/api/users/registrations', {
      body: newAccount({
        walletAddress: wallet.address,
        walletProof: first.body.walletProof,
        cid: 'dev-wallet',
      }),
    });
    expect(registered.status).toBe(201);
    expect(registered.body.user.walletAddress).toBe(wallet.address);

    const again = await t.request('POST', VERIFY, { body: proof(wallet, await nonce()) });
    expect(again.status).toBe(200);
    expect(readSessionToken(again.body.authToken)?.userId).toBe(registered.body.user.id);
  });

  it('each nonce proves one connection', async () => {
    const wallet = await createAccount(client);
    const body = proof(wallet, await nonce());
    expect((await t.request('POST', VERIFY, { body })).status).toBe(200);
    const replay = await t.request('POST', VERIFY, { body });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ code: 'BLOCTO_AUTHENTICATION', field: 'nonce' });
  });

  it('refuses a nonce the server never issued, and an expired one', async () => {
    const wallet = await createAccount(client);
    const unknown = await t.request('POST', VERIFY, { body: proof(wallet, 'ab'.repeat(32)) });
    expect(unknown.body).toMatchObject({ code: 'BLOCTO_AUTHENTICATION', field: 'nonce' });
    const n = await nonce();
    t.clock.advance(NONCE_TTL_MS + 1);
    const expired = await t.request('POST', VERIFY, { body: proof(wallet, n) });
    expect(expired.body).toMatchObject({ code: 'BLOCTO_AUTHENTICATION', field: 'nonce' });
  });

  it('refuses a tampered signature, a proof for another nonce, and a key that is not the account’s', async () => {
    const wallet = await createAccount(client);
    const good = proof(wallet, await nonce());
    const flipped = good.signature.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const tampered = await t.request('POST', VERIFY, { body: { ...good, signature: flipped } });
    expect(tampered.status).toBe(401);
    expect(tampered.body.code).toBe('BLOCTO_AUTHENTICATION');

    const signedOther = proof(wallet, await nonce());
    const otherNonce = await nonce();
    const moved = await t.request('POST', VERIFY, { body: { ...signedOther, nonce: otherNonce } });
    expect(moved.status).toBe(401);

    const stranger = generateKeyPair();
    const forged = await t.request('POST', VERIFY, {
      body: proof(wallet, await nonce(), stranger.privateKey),
    });
    expect(forged.status).toBe(401);
  });

  it('validates its input with the shared schema', async () => {
    const res = await t.request('POST', VERIFY, {
      body: { walletAddress: 'nope', keyId: 0, signature: 'x', nonce: 'y' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_VALUE', field: 'walletAddress' });
  });
});
