import { randomBytes } from 'node:crypto';
import * as fcl from '@onflow/fcl';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AccountKey } from '../../server/chain/config';
import { generateKeyPair, signMessage } from '../../server/chain/signer';
import { chainClient, newCollector } from './support';

/**
 * FCLCrypto on the emulator, checked through FCL's own verifiers (AppUtils runs FCLCrypto's
 * functions as scripts): what the account-proof routes will call.
 */

const client = chainClient();
const appIdentifier = 'Vitrine';
const fclCryptoContract = client.config.contracts.FCLCrypto;

/** A 32-byte domain tag as FCL and Cadence pad it. */
const tag = (text: string) => Buffer.from(text, 'utf8').toString('hex').padEnd(64, '0');

function proofFor(account: AccountKey, nonce: string, signingKey = account.privateKey) {
  const message = fcl.WalletUtils.encodeAccountProof({ address: account.address, nonce, appIdentifier });
  return {
    address: account.address,
    nonce,
    signatures: [
      {
        f_type: 'CompositeSignature' as const,
        f_vsn: '1.0.0' as const,
        addr: account.address,
        keyId: account.keyIndex,
        signature: signMessage(signingKey, message),
      },
    ],
  };
}

describe('FCLCrypto with FCL AppUtils', () => {
  let wallet: AccountKey;

  beforeAll(async () => {
    fcl.config({ 'accessNode.api': client.config.accessNode, 'flow.network': 'local' });
    wallet = await newCollector(client, { setup: false });
  });

  it('accepts an account proof signed by the account’s key', async () => {
    const nonce = randomBytes(32).toString('hex');
    expect(
      await fcl.AppUtils.verifyAccountProof(appIdentifier, proofFor(wallet, nonce), { fclCryptoContract }),
    ).toBe(true);
  });

  it('refuses a proof whose nonce, address or app identifier was changed', async () => {
    const nonce = randomBytes(32).toString('hex');
    const proof = proofFor(wallet, nonce);
    const otherNonce = randomBytes(32).toString('hex');
    expect(
      await fcl.AppUtils.verifyAccountProof(
        appIdentifier,
        { ...proof, nonce: otherNonce },
        { fclCryptoContract },
      ),
    ).toBe(false);
    expect(await fcl.AppUtils.verifyAccountProof('Elsewhere', proof, { fclCryptoContract })).toBe(false);

    const other = await newCollector(client, { setup: false });
    const moved = {
      ...proof,
      address: other.address,
      signatures: proof.signatures.map((s) => ({ ...s, addr: other.address })),
    };
    expect(await fcl.AppUtils.verifyAccountProof(appIdentifier, moved, { fclCryptoContract })).toBe(false);
  });

  it('refuses a proof signed by a key the account does not have', async () => {
    const nonce = randomBytes(32).toString('hex');
    const forged = proofFor(wallet, nonce, generateKeyPair().privateKey);
    expect(await fcl.AppUtils.verifyAccountProof(appIdentifier, forged, { fclCryptoContract })).toBe(false);
  });

  it('verifies user signatures over a message', async () => {
    const message = Buffer.from('Vitrine: relink wallet', 'utf8').toString('hex');
    const signature = signMessage(wallet.privateKey, tag('FLOW-V0.0-user') + message);
    const signatures = [
      {
        f_type: 'CompositeSignature' as const,
        f_vsn: '1.0.0' as const,
        addr: wallet.address,
        keyId: 0,
        signature,
      },
    ];
    expect(await fcl.AppUtils.verifyUserSignatures(message, signatures, { fclCryptoContract })).toBe(true);
    const otherMessage = Buffer.from('Vitrine: something else', 'utf8').toString('hex');
    expect(await fcl.AppUtils.verifyUserSignatures(otherMessage, signatures, { fclCryptoContract })).toBe(
      false,
    );
  });
});
