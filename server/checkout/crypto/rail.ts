import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Executor } from '../../db';
import { coinbaseCharges } from '../../db/schema';
import { enqueueJob } from '../../jobs';
import { endedFailure, endUnpaid } from '../failures';
import { addEvent, type OrderRow, SEND_FUSD_JOB } from '../orders';
import type { PaymentRail } from '../payment-rail';

/**
 * Fails an unpaid crypto order (row locked): released, its charge EXPIRED or CANCELED unless the
 * buyer paid part of it (UNRESOLVED), in which case what arrived goes back as FUSD (sendFusd).
 */
export async function failUnpaidCrypto(
  tx: Executor,
  order: OrderRow,
  status: 'expired' | 'canceled',
  chargeStatus: 'EXPIRED' | 'CANCELED',
  now: Date,
) {
  const failure = endedFailure(status, {
    expired: 'The crypto payment was not completed in time.',
    canceled: 'Your crypto purchase was canceled.',
  });
  await endUnpaid(tx, order, status, failure, now);
  const [charge] = await tx
    .select()
    .from(coinbaseCharges)
    .where(eq(coinbaseCharges.orderId, order.id))
    .for('update');
  if (charge && charge.paid > 0) {
    await enqueueJob(tx, SEND_FUSD_JOB, charge.id, now);
    await addEvent(
      tx,
      order.id,
      status,
      now,
      `${failure.message} What you paid is refunded as FUSD to your wallet.`,
    );
    return;
  }
  if (charge && ['NEW', 'UNRESOLVED'].includes(charge.status))
    await tx
      .update(coinbaseCharges)
      .set({ status: chargeStatus, updatedAt: now })
      .where(eq(coinbaseCharges.id, charge.id));
  await addEvent(tx, order.id, status, now, failure.message);
}

/** An unpaid crypto order is held as long as its hosted charge (60 minutes) and a little more for late webhooks. */
export const CRYPTO_CHARGE_TTL_MS = 60 * 60_000;
export const CRYPTO_ORDER_TTL_MS = CRYPTO_CHARGE_TTL_MS + 5 * 60_000;

/**
 * A crypto order's failure when its edition could not be minted: crypto payments cannot be
 * reversed, so what was paid goes back as FUSD (the on-ramp and the FUSD balance say the same).
 */
export const CRYPTO_MINT_FAILED_MESSAGE =
  'The edition could not be minted; your payment is refunded as FUSD to your wallet.';

/** Another open crypto charge of the buyer (one at a time: CHARGE_PENDING). */
export async function pendingCryptoCharge(tx: Executor, buyerId: string, now: Date) {
  const [row] = await tx
    .select({ id: coinbaseCharges.id })
    .from(coinbaseCharges)
    .where(
      and(
        eq(coinbaseCharges.buyerId, buyerId),
        inArray(coinbaseCharges.status, ['NEW', 'UNRESOLVED']),
        gt(coinbaseCharges.expiresAt, now),
      ),
    )
    .limit(1);
  return row;
}

/**
 * The crypto rail (Coinbase Commerce, ./charges.ts): a hosted charge of the order's price, paid
 * when the provider says so (nothing to capture); a payment that must go back is sent as FUSD to the
 * buyer's wallet (the sendFusd job, keyed by the charge).
 */
export const cryptoRail: PaymentRail = {
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
