import type { FlowClient } from './client';
import { type AccountKey, normalizeAddress } from './config';
import { generateKeyPair } from './signer';

/**
 * Development and test helper: a new account with a fresh ECDSA P-256 / SHA3-256 key, created and
 * paid for by `payer` (by default the admin, which on the emulator is the service account).
 * Answers the account's key, ready to sign as a collector.
 */
export async function createAccount(
  client: FlowClient,
  payer: AccountKey = client.config.admin,
): Promise<AccountKey> {
  const { privateKey, publicKey } = generateKeyPair('ECDSA_P256');
  const tx = await client.transact('transactions/create_account.cdc', {
    signer: payer,
    args: (arg, t) => [arg(publicKey, t.String)],
  });
  const created = tx.events.find((e) => e.type === 'flow.AccountCreated');
  if (!created) throw new Error(`transaction ${tx.id} created no account`);
  return {
    address: normalizeAddress(String(created.data.address)),
    privateKey,
    keyIndex: 0,
    signatureAlgorithm: 'ECDSA_P256',
    hashAlgorithm: 'SHA3_256',
  };
}
