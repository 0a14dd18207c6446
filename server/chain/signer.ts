import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type { InteractionAccount } from '@onflow/sdk';
import type { AccountKey, HashAlgorithm, SignatureAlgorithm } from './config';

/**
 * Server-side signing. A Flow signature over a message is ECDSA over HASH(message), given as the
 * 64 bytes r‖s in hex. The SDK hands the signer the message already prefixed with its domain tag
 * (FLOW-V0.0-transaction for transactions), so the signer only hashes and signs.
 */

const curves = { ECDSA_P256: p256, ECDSA_secp256k1: secp256k1 } as const;
const hashes = { SHA3_256: sha3_256, SHA2_256: sha256 } as const;

const sansPrefix = (address: string) => address.replace(/^0x/, '');
const withPrefix = (address: string) => `0x${sansPrefix(address)}`;

/** Signs `messageHex` (hex) as a Flow account key would: hex of r‖s. */
export function signMessage(
  privateKeyHex: string,
  messageHex: string,
  signatureAlgorithm: SignatureAlgorithm = 'ECDSA_P256',
  hashAlgorithm: HashAlgorithm = 'SHA3_256',
): string {
  const digest = hashes[hashAlgorithm](hexToBytes(messageHex));
  const signature = curves[signatureAlgorithm].sign(digest, hexToBytes(privateKeyHex), { prehash: false });
  return bytesToHex(signature);
}

/** A new random private key (hex) and its Flow public key: the uncompressed point without 04, hex. */
export function generateKeyPair(signatureAlgorithm: SignatureAlgorithm = 'ECDSA_P256'): {
  privateKey: string;
  publicKey: string;
} {
  const curve = curves[signatureAlgorithm];
  const secret = curve.utils.randomSecretKey();
  return { privateKey: bytesToHex(secret), publicKey: publicKeyOf(bytesToHex(secret), signatureAlgorithm) };
}

/** The Flow public key (hex, 64 bytes) of a private key. */
export function publicKeyOf(
  privateKeyHex: string,
  signatureAlgorithm: SignatureAlgorithm = 'ECDSA_P256',
): string {
  return bytesToHex(curves[signatureAlgorithm].getPublicKey(hexToBytes(privateKeyHex), false).slice(1));
}

/** The function the SDK calls with each account's role in a transaction; see {@link authorization}. */
export type Authorization = (account: InteractionAccount) => InteractionAccount;

/**
 * An SDK authorization for `key`: usable as proposer, payer and authorizer. The SDK asks it for
 * the account, then calls `signingFunction` with the payload or envelope message to sign.
 */
export function authorization(key: AccountKey): Authorization {
  const addr = sansPrefix(key.address);
  return (account) => ({
    ...account,
    tempId: `${addr}-${key.keyIndex}`,
    addr,
    keyId: key.keyIndex,
    signingFunction: async (signable: { message: string }) => ({
      addr: withPrefix(addr),
      keyId: key.keyIndex,
      signature: signMessage(key.privateKey, signable.message, key.signatureAlgorithm, key.hashAlgorithm),
    }),
  });
}
