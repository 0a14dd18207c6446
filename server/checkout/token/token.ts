import { and, eq } from 'drizzle-orm';
import { getAddress, verifyTypedData } from 'ethers';
import { ErrorCode, errorMessage } from '#domain/errors';
import {
  TOKEN_PAYMENT_MIN_PERCENT,
  type TokenChargeStatus,
  tokenChargeDomain,
  tokenChargeTypes,
} from '#domain/schemas/token';
import type { Database, Executor } from '../../db';
import { tokenCharges, tokenTransactions } from '../../db/schema';
import type { TokenChain } from '../../evm/token';
import { apiError } from '../../http';
import { enqueueJob } from '../../jobs';
import { addEvent, authorizeOrder, lockOrder } from '../orders';
import { REFUND_TOKEN_JOB } from './rail';

/**
 * New editions paid in NFM from a browser wallet (docs/checkout.md "Utility token"). The charge
 * holds the order's unit like every rail; the wallet signs the charge (EIP-712), transfers the NFM
 * to the platform's address and reports the transaction; the server reads the transfer from the
 * chain itself and completes the charge when it carries at least 95 % of the amount, from the
 * charge's address to the platform's. A transaction pays one charge, once (token_transactions).
 */
export type TokenChargeRow = typeof tokenCharges.$inferSelect;

/** The statuses of a charge that still waits for its payment. */
export const ACTIVE: TokenChargeStatus[] = ['created', 'signed'];

/** NFM (smallest unit, 18 decimals) for `cents` at `frrPerUsd` FRR per dollar (≤ 6 decimals). */
export function tokenAmountFor(cents: number, frrPerUsd: string): bigint {
  const [whole, fraction = ''] = frrPerUsd.split('.');
  const micros = BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  // cents/100 dollars × micros/10⁶ FRR × 10¹⁸ = cents × micros × 10¹⁰, exactly.
  return BigInt(cents) * micros * 10_000_000_000n;
}

/** "0x7099…79C8": an address as the buyer recognizes it. */
export const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

export async function lockCharge(tx: Executor, id: string) {
  const [row] = await tx.select().from(tokenCharges).where(eq(tokenCharges.id, id)).for('update');
  return row;
}

/** The buyer's charge; undefined for an unknown or someone else's id. */
export async function ownTokenCharge(db: Executor, buyerId: string, id: string) {
  const [row] = await db
    .select()
    .from(tokenCharges)
    .where(and(eq(tokenCharges.id, id), eq(tokenCharges.buyerId, buyerId)));
  return row;
}

/** The wallet's signature of the charge (EIP-712): it must come from the charge's address. */
export async function signTokenCharge(
  db: Database,
  chain: TokenChain,
  charge: TokenChargeRow,
  signature: string,
  now: Date,
): Promise<void> {
  let signer: string;
  try {
    signer = verifyTypedData(
      tokenChargeDomain(chain.chainId, chain.tokenAddress),
      tokenChargeTypes as never,
      { charge: charge.id, amount: charge.tokenAmount, to: chain.paymentsAddress },
      signature,
    );
  } catch {
    throw apiError(400, ErrorCode.INVALID_VALUE, 'signature');
  }
  if (getAddress(signer) !== charge.ethAddress) throw wrongAddress(charge);
  await db.transaction(async (tx) => {
    if (charge.orderId) await lockOrder(tx, charge.orderId);
    const row = await lockCharge(tx, charge.id);
    if (!row) return;
    if (row.status === 'completed' || row.status === 'MINTING' || row.status === 'MINTED')
      throw apiError(400, ErrorCode.ERROR_TOKEN_CHARGE_COMPLETE);
    if (row.status !== 'created' && row.status !== 'signed')
      throw apiError(400, ErrorCode.TRANSACTION, 'status', `This charge is ${row.status}.`);
    await tx
      .update(tokenCharges)
      .set({ status: 'signed', signature, updatedAt: now })
      .where(eq(tokenCharges.id, row.id));
  });
}

const wrongAddress = (charge: TokenChargeRow) => {
  const params = { address: shortAddress(charge.ethAddress) };
  const code = ErrorCode.ERROR_TOKEN_CHARGE_ETH_ADDRESS;
  const err = apiError(400, code, undefined, errorMessage({ code, params }));
  err.body.params = params;
  return err;
};

/**
 * A reported transfer, read from the chain: the NFM it moved from the charge's address to the
 * platform's. At least 95 % of the amount completes the charge and authorizes its order (minting
 * follows); less is LOW_FUNDS. Reporting the same transaction again answers as before.
 */
export async function reportTokenTransfer(
  db: Database,
  chain: TokenChain,
  charge: TokenChargeRow,
  hash: string,
  now: Date,
): Promise<void> {
  const [seen] = await db.select().from(tokenTransactions).where(eq(tokenTransactions.hash, hash));
  if (seen) {
    if (seen.chargeId !== charge.id)
      throw apiError(400, ErrorCode.TRANSACTION, 'transactionHash', 'This transaction paid another charge.');
    if (!seen.accepted) throw apiError(400, ErrorCode.LOW_FUNDS, 'transactionHash');
    return;
  }
  if (charge.status === 'completed' || charge.status === 'MINTING' || charge.status === 'MINTED')
    throw apiError(400, ErrorCode.ERROR_TOKEN_CHARGE_COMPLETE);
  if (!charge.orderId || !ACTIVE.includes(charge.status as TokenChargeStatus))
    throw apiError(400, ErrorCode.TRANSACTION, 'status', `This charge is ${charge.status}.`);
  // The wallet signs the charge before it pays it: a transfer is taken only for a signed charge.
  if (charge.status !== 'signed') throw notSigned();
  const read = await chain.readTransaction(hash);
  if (read.status === 'unknown') throw apiError(409, ErrorCode.TRANSACTION_PENDING, 'transactionHash');
  if (read.status === 'failed')
    throw apiError(400, ErrorCode.TRANSACTION, 'transactionHash', 'This transaction failed on chain.');
  const toUs = read.transfers.filter((t) => t.to === chain.paymentsAddress);
  if (toUs.length === 0)
    throw apiError(400, ErrorCode.TRANSACTION, 'transactionHash', 'This transaction sent no NFM to Vitrine.');
  const fromCharge = toUs.filter((t) => t.from === charge.ethAddress);
  if (fromCharge.length === 0) throw wrongAddress(charge);
  const value = fromCharge.reduce((sum, t) => sum + t.value, 0n);
  const accepted = value * 100n >= BigInt(charge.tokenAmount) * BigInt(TOKEN_PAYMENT_MIN_PERCENT);
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, charge.orderId!);
    const row = await lockCharge(tx, charge.id);
    if (!row || !order) return;
    const [inserted] = await tx
      .insert(tokenTransactions)
      .values({ hash, chargeId: row.id, value: value.toString(), accepted, createdAt: now })
      .onConflictDoNothing()
      .returning();
    // Reported twice at once: the first report decides.
    if (!inserted || !accepted) return;
    if (!ACTIVE.includes(row.status as TokenChargeStatus)) return;
    await tx
      .update(tokenCharges)
      .set({ status: 'completed', updatedAt: now })
      .where(eq(tokenCharges.id, row.id));
    if (order.status === 'created') {
      await authorizeOrder(tx, order.id, now, `Paid in NFM (transaction ${hash.slice(0, 10)}…).`);
    } else {
      // Paid after the order ended (expired or canceled): the NFM goes back (refundToken job).
      await addEvent(
        tx,
        order.id,
        'paid_late',
        now,
        'Your NFM arrived after the order ended: it is sent back.',
      );
      await enqueueJob(tx, REFUND_TOKEN_JOB, row.id, now);
    }
  });
  if (!accepted) throw apiError(400, ErrorCode.LOW_FUNDS, 'transactionHash');
}

const notSigned = () =>
  apiError(
    400,
    ErrorCode.TRANSACTION,
    'signature',
    'Sign the payment in your wallet before its NFM transfer is taken.',
  );
