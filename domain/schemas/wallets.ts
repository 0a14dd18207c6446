import * as v from 'valibot';
import { fieldObject } from '../validation';
import { Email, FlowAddress } from './accounts';

/** The account proof a wallet returns when a user connects it. */
export const AccountProofInput = fieldObject({
  /** The email the wallet shared, if any. */
  email: v.optional(Email),
  walletAddress: FlowAddress,
  keyId: v.pipe(
    v.number('INVALID_VALUE.keyId'),
    v.integer('INVALID_VALUE.keyId'),
    v.minValue(0, 'INVALID_VALUE.keyId'),
    // Flow numbers an account's keys with 32 bits.
    v.maxValue(0xffff_ffff, 'INVALID_VALUE.keyId'),
  ),
  signature: v.pipe(
    v.string('INVALID_VALUE.signature'),
    v.regex(/^[0-9a-fA-F]{128}$/, 'INVALID_VALUE.signature'),
  ),
  nonce: v.pipe(v.string('INVALID_VALUE.nonce'), v.regex(/^[0-9a-f]{64}$/, 'INVALID_VALUE.nonce')),
});
export type AccountProofInput = v.InferOutput<typeof AccountProofInput>;

/** The app identifier wallets sign into account proofs. */
export const ACCOUNT_PROOF_APP_IDENTIFIER = 'Vitrine';
