import { and, eq, inArray } from 'drizzle-orm';
import { openWertChargeStatuses } from '#domain/schemas/wert';
import type { Executor } from '../../db';
import { wertCharges } from '../../db/schema';
import { enqueueJob } from '../../jobs';
import { CRYPTO_MINT_FAILED_MESSAGE } from '../crypto/rail';
import { endUnpaid, type Failure, type UnpaidEnd } from '../failures';
import { addEvent, type OrderRow } from '../orders';
import type { PaymentRail } from '../payment-rail';
import { WERT_ORDER_TTL_MS, WERT_REFUND_JOB } from './wert';

/**
 * Fails an unpaid on-ramp order (row locked): its status and failure, its unit released, and its
 * charge, when given a status and still open (openWertChargeStatuses), ends with it.
 */
export async function failUnpaidWert(
  tx: Executor,
  order: OrderRow,
  status: UnpaidEnd,
  failure: Failure,
  chargeStatus: 'canceled' | 'expired' | null,
  now: Date,
) {
  await endUnpaid(tx, order, status, failure, now);
  if (chargeStatus)
    await tx
      .update(wertCharges)
      .set({ status: chargeStatus, updatedAt: now })
      .where(
        and(eq(wertCharges.orderId, order.id), inArray(wertCharges.status, [...openWertChargeStatuses])),
      );
  await addEvent(tx, order.id, status, now, failure.message);
}

/**
 * The card-to-crypto on-ramp rail (Wert, ./wert.ts): the order is paid when the provider confirms
 * its card payment arrived as FUSD in the treasury (nothing to capture); what must go back is sent
 * as FUSD from the treasury (the wertRefund job, keyed by the charge). The reservation's charge is
 * the route's (`wertCharge`: the signed widget options).
 */
export const wertRail: PaymentRail = {
  orderTtlMs: WERT_ORDER_TTL_MS,
  mintFailedMessage: CRYPTO_MINT_FAILED_MESSAGE,
  async setStatus(tx, orderId, status, at) {
    await tx.update(wertCharges).set({ status, updatedAt: at }).where(eq(wertCharges.orderId, orderId));
  },
  async compensate(tx, order, at) {
    const [charge] = await tx
      .select({ id: wertCharges.id })
      .from(wertCharges)
      .where(eq(wertCharges.orderId, order.id));
    if (charge) await enqueueJob(tx, WERT_REFUND_JOB, charge.id, at);
  },
  // A payment the provider completes after this goes back as FUSD (./refund.ts).
  expire: (tx, order, now) =>
    failUnpaidWert(
      tx,
      order,
      'expired',
      { code: 'EXPIRED', message: 'The card payment was not completed in time. You were not charged.' },
      'expired',
      now,
    ),
};
