import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db';
import { fusdPayments } from '../../db/schema';
import { enqueueJob } from '../../jobs';
import { CRYPTO_MINT_FAILED_MESSAGE } from '../crypto/pending';
import { endedFailure, endUnpaid } from '../failures';
import { addEvent, ORDER_TTL_MS, type OrderRow } from '../orders';
import type { PaymentRail } from '../payment-rail';

/** Fails an unpaid balance order (row locked): expired or canceled, its unit released. */
export async function failUnpaidFusd(
  tx: Executor,
  order: OrderRow,
  status: 'expired' | 'canceled',
  now: Date,
) {
  const failure = endedFailure(status, {
    expired: 'The payment was not made in time. Nothing was taken from your balance.',
    canceled: 'Your purchase was canceled. Nothing was taken from your balance.',
  });
  await endUnpaid(tx, order, status, failure, now);
  await addEvent(tx, order.id, status, now, failure.message);
}

/** The job that sends a payment back from the treasury, keyed by the payment's id. */
export const REFUND_FUSD_JOB = 'refundFusd';

/** An accepted payment whose order could not be minted goes back (the order is being refunded). */
export async function refundAcceptedPayment(tx: Executor, orderId: string, now: Date) {
  const [payment] = await tx
    .update(fusdPayments)
    .set({ status: 'REFUND_PENDING', updatedAt: now })
    .where(and(eq(fusdPayments.orderId, orderId), eq(fusdPayments.accepted, true)))
    .returning({ id: fusdPayments.id });
  if (payment) await enqueueJob(tx, REFUND_FUSD_JOB, payment.id, now);
}

/**
 * The FUSD balance rail (./fusd.ts): the buyer pays from their wallet on chain, and the order is
 * paid when its Paid event is seen (nothing to capture, no charge opened at reservation: an unpaid
 * order simply expires); the accepted payment goes back to the wallet (the refundFusd job).
 */
export const fusdRail: PaymentRail = {
  orderTtlMs: ORDER_TTL_MS,
  mintFailedMessage: CRYPTO_MINT_FAILED_MESSAGE,
  charge: () => ({ pending: async () => undefined, attach: async () => undefined }),
  async setStatus(tx, orderId, status, at) {
    await tx
      .update(fusdPayments)
      .set({ status, updatedAt: at })
      .where(and(eq(fusdPayments.orderId, orderId), eq(fusdPayments.accepted, true)));
  },
  compensate: (tx, order, at) => refundAcceptedPayment(tx, order.id, at),
  expire: (tx, order, now) => failUnpaidFusd(tx, order, 'expired', now),
};
