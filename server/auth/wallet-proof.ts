import { randomBytes } from 'node:crypto';
import { WalletUtils } from '@onflow/fcl';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import { ACCOUNT_PROOF_APP_IDENTIFIER } from '../../src/domain/schemas/wallets';
import type { FlowClient } from '../chain/client';
import type { Database } from '../db';
import { walletNonces } from '../db/schema';
import type { Clock } from '../deps';

/**
 * Wallet connection (SPEC §7): a single-use nonce, the wallet's account proof over it checked by
 * FCLCrypto on chain, and, for a wallet no account holds yet, a short-lived wallet proof that lets
 * registration or Settings → Wallet link that address.
 */
export const NONCE_TTL_MS = 10 * 60 * 1000;
export const WALLET_PROOF_TTL_SECONDS = 15 * 60;

export async function issueNonce(db: Database, clock: Clock): Promise<string> {
  const nonce = randomBytes(32).toString('hex');
  await db.insert(walletNonces).values({ nonce, expiresAt: new Date(clock().getTime() + NONCE_TTL_MS) });
  return nonce;
}

/** Marks the nonce used; false when it is unknown, used or expired. */
export async function consumeNonce(db: Database, clock: Clock, nonce: string): Promise<boolean> {
  const now = clock();
  const used = await db
    .update(walletNonces)
    .set({ usedAt: now })
    .where(and(eq(walletNonces.nonce, nonce), isNull(walletNonces.usedAt), gt(walletNonces.expiresAt, now)))
    .returning({ nonce: walletNonces.nonce });
  return used.length === 1;
}

/** Whether `signature` by key `keyId` of `address` signs the account proof of `nonce`. */
export async function verifyAccountProof(
  client: FlowClient,
  proof: { address: string; nonce: string; keyId: number; signature: string },
): Promise<boolean> {
  const message = WalletUtils.encodeAccountProof(
    { address: proof.address, nonce: proof.nonce, appIdentifier: ACCOUNT_PROOF_APP_IDENTIFIER },
    false,
  );
  try {
    return await client.query<boolean>('scripts/verify_account_proof.cdc', (arg, t) => [
      arg(proof.address, t.Address),
      arg(message, t.String),
      arg([String(proof.keyId)], t.Array(t.Int)),
      arg([proof.signature.toLowerCase()], t.Array(t.String)),
    ]);
  } catch {
    // A key index the account lacks, or a malformed signature, fails verification in Cadence.
    return false;
  }
}

export interface WalletProofs {
  /** A proof that the holder controls `walletAddress`, for linking it to an account. */
  issue(walletAddress: string): Promise<string>;
  /** The address a valid, unexpired proof speaks for; undefined otherwise. */
  verify(token: string): Promise<string | undefined>;
}

export function createWalletProofs(secret: string, clock: Clock): WalletProofs {
  const key = new TextEncoder().encode(secret);
  return {
    issue(walletAddress) {
      const now = Math.floor(clock().getTime() / 1000);
      return new SignJWT({ purpose: 'wallet', walletAddress })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(now)
        .setExpirationTime(now + WALLET_PROOF_TTL_SECONDS)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: clock() });
        return payload.purpose === 'wallet' && typeof payload.walletAddress === 'string'
          ? payload.walletAddress
          : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
