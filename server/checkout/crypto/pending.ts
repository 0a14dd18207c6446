import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Executor } from '../../db';
import { coinbaseCharges } from '../../db/schema';
import { enqueueJob } from '../../jobs';
import { endedFailure, endUnpaid } from '../failures';
import { addEvent, type OrderRow, SEND_FUSD_JOB } from '../orders';

/* An unpaid crypto charge: how long it holds its unit, finding the buyer's open one, ending one. */

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
