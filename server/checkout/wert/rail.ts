import { eq } from 'drizzle-orm';
import { wertCharges } from '../../db/schema';
import { enqueueJob } from '../../jobs';
import { CRYPTO_MINT_FAILED_MESSAGE } from '../crypto/pending';
import type { PaymentRail } from '../payment-rail';
import { failUnpaidWert } from './failures';
import { wertWebhookRoute } from './webhook-route';
import { WERT_ORDER_TTL_MS, WERT_REFUND_JOB } from './wert';

/**
 * The card-to-crypto on-ramp rail (Wert, ./wert.ts): the order is paid when the provider confirms
 * its card payment arrived as FUSD in the treasury (nothing to capture); what must go back is sent
 * as FUSD from the treasury (the wertRefund job, keyed by the charge). The reservation's charge is
 * the route's (`wertCharge`: the signed widget options).
 */
export const wertRail: PaymentRail = {
  webhook: wertWebhookRoute,
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
