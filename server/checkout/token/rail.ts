import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db';
import { tokenCharges, tokenTransactions } from '../../db/schema';
import { enqueueJob } from '../../jobs';
import { endedFailure, endUnpaid } from '../failures';
import { addEvent, ORDER_TTL_MS, type OrderRow } from '../orders';
import type { PaymentRail } from '../payment-rail';

/** The job that gives a token charge's received NFM back (server/checkout/token/refund.ts). */
export const REFUND_TOKEN_JOB = 'refundToken';

/** Fails an unpaid NFM order (row locked): its status, its unit released, its open charge ended. */
export async function failUnpaidToken(
  tx: Executor,
  order: OrderRow,
  status: 'expired' | 'canceled',
  now: Date,
) {
  const failure = endedFailure(status, {
    expired: 'The NFM payment was not completed in time. Any NFM received is sent back to your wallet.',
    canceled: 'Your purchase was canceled. Nothing was taken from your wallet.',
  });
  await endUnpaid(tx, order, status, failure, now);
  const [charge] = await tx
    .update(tokenCharges)
    .set({ status, updatedAt: now })
    .where(and(eq(tokenCharges.orderId, order.id), inArray(tokenCharges.status, ['created', 'signed'])))
    .returning({ id: tokenCharges.id });
  await addEvent(tx, order.id, status, now, failure.message);
  // NFM that arrived short of the price goes back.
  if (charge) {
    const [transfer] = await tx
      .select({ hash: tokenTransactions.hash })
      .from(tokenTransactions)
      .where(eq(tokenTransactions.chargeId, charge.id))
      .limit(1);
    if (transfer) await enqueueJob(tx, REFUND_TOKEN_JOB, charge.id, now);
  }
}

/** An NFM order's failure when its edition could not be minted. */
export const TOKEN_MINT_FAILED_MESSAGE =
  'The edition could not be minted; your NFM is sent back to the address that paid it.';

/**
 * The utility-token rail (NFM, ./token.ts): the order is paid when its transfer is read from the EVM
 * chain (nothing to capture); what must go back is sent back in NFM to the address that paid it
 * (the refundToken job, keyed by the charge). The reservation's charge is `startTokenPurchase`'s (./purchase.ts).
 */
export const tokenRail: PaymentRail = {
  orderTtlMs: ORDER_TTL_MS,
  mintFailedMessage: TOKEN_MINT_FAILED_MESSAGE,
  async setStatus(tx, orderId, status, at) {
    await tx.update(tokenCharges).set({ status, updatedAt: at }).where(eq(tokenCharges.orderId, orderId));
  },
  async compensate(tx, order, at) {
    const [charge] = await tx
      .select({ id: tokenCharges.id })
      .from(tokenCharges)
      .where(eq(tokenCharges.orderId, order.id));
    if (charge) await enqueueJob(tx, REFUND_TOKEN_JOB, charge.id, at);
  },
  expire: (tx, order, now) => failUnpaidToken(tx, order, 'expired', now),
};
