import { eq } from 'drizzle-orm';
import { coinbaseCharges } from '../../db/schema';
import { enqueueJob } from '../../jobs';
import { SEND_FUSD_JOB } from '../orders';
import type { PaymentRail } from '../payment-rail';
import {
  CRYPTO_CHARGE_TTL_MS,
  CRYPTO_MINT_FAILED_MESSAGE,
  CRYPTO_ORDER_TTL_MS,
  failUnpaidCrypto,
  pendingCryptoCharge,
} from './pending';
import { cryptoWebhookRoute } from './webhook';

/**
 * The crypto rail (Coinbase Commerce, ./charges.ts): a hosted charge of the order's price, paid
 * when the provider says so (nothing to capture); a payment that must go back is sent as FUSD to the
 * buyer's wallet (the sendFusd job, keyed by the charge).
 */
export const cryptoRail: PaymentRail = {
  webhook: cryptoWebhookRoute,
  orderTtlMs: CRYPTO_ORDER_TTL_MS,
  mintFailedMessage: CRYPTO_MINT_FAILED_MESSAGE,
  charge: (input) => ({
    pending: (tx) => pendingCryptoCharge(tx, input.buyerId, input.now),
    async attach(tx, order) {
      await tx.insert(coinbaseCharges).values({
        buyerId: input.buyerId,
        idempotencyKey: input.idempotencyKey,
        type: 'directPurchase',
        orderId: order.id,
        amount: order.amount,
        walletAddress: order.walletAddress,
        expiresAt: new Date(input.now.getTime() + CRYPTO_CHARGE_TTL_MS),
        createdAt: input.now,
        updatedAt: input.now,
      });
    },
  }),
  async setStatus(tx, orderId, status, at) {
    await tx
      .update(coinbaseCharges)
      .set({ status, updatedAt: at })
      .where(eq(coinbaseCharges.orderId, orderId));
  },
  async compensate(tx, order, at) {
    const [charge] = await tx
      .select({ id: coinbaseCharges.id })
      .from(coinbaseCharges)
      .where(eq(coinbaseCharges.orderId, order.id));
    if (charge) await enqueueJob(tx, SEND_FUSD_JOB, charge.id, at);
  },
  expire: (tx, order, now) => failUnpaidCrypto(tx, order, 'expired', 'EXPIRED', now),
};
