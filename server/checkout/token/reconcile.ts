import { and, asc, eq, inArray, isNull, lt } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import type { TokenChargeStatus } from '#domain/schemas/token';
import type { Database, Executor } from '../../db';
import { orders, tokenCharges, tokenTransactions } from '../../db/schema';
import { type TokenChain, TokenChainUnavailableError } from '../../evm/token';
import { apiError } from '../../http';
import { lockOrder } from '../orders';
import { failUnpaidToken } from './rail';
import { ACTIVE, lockCharge, reportTokenTransfer, type TokenChargeRow } from './token';

/**
 * A transfer nobody reported is found on chain and taken (a tab closed or reloaded before it
 * reported), and a charge is canceled only while no transfer paid it.
 */

/**
 * A transfer of NFM from the charge's address to the platform's, mined since the charge was
 * created and reported for no charge: the transfer of a tab that sent it and was closed or
 * reloaded before reporting it. Null when there is none (or the charge predates `fromBlock`).
 */
export async function unreportedTransfer(
  db: Executor,
  chain: TokenChain,
  charge: TokenChargeRow,
): Promise<string | null> {
  if (charge.fromBlock === null || !charge.orderId || !ACTIVE.includes(charge.status as TokenChargeStatus))
    return null;
  const found = await chain.transfersToPayments(charge.ethAddress, charge.fromBlock);
  if (found.length === 0) return null;
  const known = await db
    .select({ hash: tokenTransactions.hash })
    .from(tokenTransactions)
    .where(
      inArray(
        tokenTransactions.hash,
        found.map((t) => t.hash),
      ),
    );
  const reported = new Set(known.map((t) => t.hash));
  return found.find((t) => !reported.has(t.hash))?.hash ?? null;
}

/**
 * A signed charge with no reported transfer takes the one found on chain, as if its tab had
 * reported it (completed, or low_funds kept on the charge): a reload or a lost answer never leaves
 * NFM sent but unaccounted, and the buyer is never asked to send it again. Answers whether one was
 * found.
 */
export async function reconcileTokenCharge(
  db: Database,
  chain: TokenChain,
  charge: TokenChargeRow,
  now: Date,
): Promise<boolean> {
  if (charge.status !== 'signed') return false;
  const [reported] = await db
    .select({ hash: tokenTransactions.hash })
    .from(tokenTransactions)
    .where(eq(tokenTransactions.chargeId, charge.id))
    .limit(1);
  if (reported) return false;
  const hash = await unreportedTransfer(db, chain, charge);
  if (!hash) return false;
  try {
    await reportTokenTransfer(db, chain, charge, hash, now);
  } catch (err) {
    // Refused (too low, another charge's): what the report decided is kept on the charge.
    if (err instanceof TokenChainUnavailableError) throw err;
  }
  return true;
}

/**
 * Before unpaid orders expire: each signed charge whose order ends within `withinMs` and that has
 * no reported transfer takes one found on chain, so NFM sent from a tab that was closed before
 * reporting it pays the order instead of arriving for an expired one. Answers how many found one;
 * stops at an unreachable node (the next sweep tries again).
 */
export async function reconcileDueTokenCharges(
  db: Database,
  chain: TokenChain,
  now: Date,
  withinMs = 60_000,
  limit = 100,
): Promise<number> {
  const due = await db
    .select({ charge: tokenCharges })
    .from(tokenCharges)
    .innerJoin(orders, eq(orders.id, tokenCharges.orderId))
    .leftJoin(tokenTransactions, eq(tokenTransactions.chargeId, tokenCharges.id))
    .where(
      and(
        eq(tokenCharges.status, 'signed'),
        eq(orders.status, 'created'),
        lt(orders.expiresAt, new Date(now.getTime() + withinMs)),
        isNull(tokenTransactions.hash),
      ),
    )
    .orderBy(asc(orders.expiresAt))
    .limit(limit);
  let found = 0;
  for (const { charge } of due) if (await reconcileTokenCharge(db, chain, charge, now)) found++;
  return found;
}

/**
 * Cancels a charge no transfer was made for: its order ends and gives its unit back. A transfer
 * reported, or found on chain (which a signed charge then takes), makes it CHARGE_NOT_CANCELLABLE.
 */
export async function cancelTokenCharge(
  db: Database,
  chain: TokenChain,
  charge: TokenChargeRow,
  now: Date,
): Promise<void> {
  if (await unreportedTransfer(db, chain, charge)) {
    await reconcileTokenCharge(db, chain, charge, now);
    throw apiError(400, ErrorCode.CHARGE_NOT_CANCELLABLE);
  }
  await db.transaction(async (tx) => {
    const order = charge.orderId ? await lockOrder(tx, charge.orderId) : undefined;
    const row = await lockCharge(tx, charge.id);
    if (!row || row.status === 'canceled') return;
    const [transfer] = await tx
      .select({ hash: tokenTransactions.hash })
      .from(tokenTransactions)
      .where(eq(tokenTransactions.chargeId, row.id))
      .limit(1);
    if (transfer || !['created', 'signed', 'lowFunds'].includes(row.status))
      throw apiError(400, ErrorCode.CHARGE_NOT_CANCELLABLE);
    await tx
      .update(tokenCharges)
      .set({ status: 'canceled', updatedAt: now })
      .where(eq(tokenCharges.id, row.id));
    if (order?.status === 'created') await failUnpaidToken(tx, order, 'canceled', now);
  });
}
