import { and, eq, gt } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import type { Executor } from '../../db';
import { cardCharges, orders } from '../../db/schema';
import { ProviderRefusedError } from '../../payments/provider';
import { failureOf, requestCompensation } from '../failures';
import {
  addEvent,
  chargeOfOrder,
  lockOrder,
  ORDER_TTL_MS,
  type OrderRow,
  release,
  type SaveCardDetails,
} from '../orders';
import type { PaymentRail, RailCharge, RailDeps } from '../payment-rail';
import { failUnpaid } from './failures';
import { voidFailedOrder } from './settle';
import { cardWebhookRoute } from './webhook';

/** A card order's failure when its edition could not be minted (the payment is refunded). */
export const MINT_FAILED_MESSAGE = 'The edition could not be minted; your payment was refunded.';

/**
 * The card charge a reservation opens: another unpaid card order of the buyer refuses it (one at a
 * time: CHARGE_PENDING), and the order's card charge is written in the reservation's transaction with
 * the saved card it pays with, or the new card's details to save once the payment is approved.
 */
export function cardCharge(
  buyerId: string,
  now: Date,
  card: { billingInfoId: string | null; saveCard: SaveCardDetails | null },
): RailCharge {
  return {
    async pending(tx: Executor) {
      const [row] = await tx
        .select({ id: cardCharges.id })
        .from(cardCharges)
        .innerJoin(orders, eq(orders.id, cardCharges.orderId))
        .where(and(eq(orders.buyerId, buyerId), eq(orders.status, 'created'), gt(orders.expiresAt, now)))
        .limit(1);
      return row;
    },
    async attach(tx, order) {
      await tx.insert(cardCharges).values({
        orderId: order.id,
        buyerId,
        billingInfoId: card.billingInfoId,
        saveCard: card.saveCard,
        createdAt: now,
        updatedAt: now,
      });
    },
  };
}

async function setCardStatus(tx: Executor, orderId: string, status: string, at: Date) {
  await tx.update(cardCharges).set({ status, updatedAt: at }).where(eq(cardCharges.orderId, orderId));
}

/** The provider no longer holds the authorization (it expired or was voided): the order is voided. */
async function authorizationLost({ db, now }: RailDeps, order: OrderRow, status: string) {
  const failure = failureOf(
    ErrorCode.CARD_DECLINED,
    'The card payment could not be completed. You were not charged.',
  );
  await db.transaction(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    if (locked?.status !== 'authorized') return;
    const at = now();
    await tx
      .update(orders)
      .set({ status: 'voided', failureCode: failure.code, failureMessage: failure.message, updatedAt: at })
      .where(eq(orders.id, order.id));
    await release(tx, locked, at);
    await setCardStatus(tx, order.id, status, at);
    await addEvent(tx, order.id, 'voided', at, failure.message);
  });
}

/**
 * The card rail (Checkout.com): the provider authorizes at checkout (3-D Secure), the fulfil job
 * captures (key capture-{orderId}) before minting and refunds (key refund-{orderId}) a payment whose
 * edition could not be minted; an authorization for an order that failed first is voided
 * (key void-{orderId}).
 */
export const cardRail: PaymentRail = {
  webhook: cardWebhookRoute,
  orderTtlMs: ORDER_TTL_MS,
  mintFailedMessage: MINT_FAILED_MESSAGE,
  setStatus: setCardStatus,
  async capture(deps, order) {
    const charge = await chargeOfOrder(deps.db, order.id);
    if (!charge?.paymentId) throw new Error(`order ${order.id} has no payment to capture`);
    try {
      await deps.cardProvider().capture(charge.paymentId, `capture-${order.id}`);
    } catch (err) {
      if (!(err instanceof ProviderRefusedError)) throw err;
      const payment = await deps.cardProvider().getPayment(charge.paymentId);
      if (['Voided', 'Expired', 'Declined', 'Canceled'].includes(payment.status)) {
        await authorizationLost(deps, order, payment.status);
        return false;
      }
      if (payment.status !== 'Captured') throw err;
    }
    return true;
  },
  async captured(tx, orderId, at) {
    await setCardStatus(tx, orderId, 'Captured', at);
    await addEvent(tx, orderId, 'captured', at, 'Your card was charged.');
  },
  async refundAtProvider(deps, order) {
    const charge = await chargeOfOrder(deps.db, order.id);
    if (charge?.paymentId) await deps.cardProvider().refund(charge.paymentId, `refund-${order.id}`);
  },
  async compensate(tx, order, at) {
    await setCardStatus(tx, order.id, 'Refunded', at);
  },
  async expire(tx, order, now) {
    const charge = await chargeOfOrder(tx, order.id);
    await failUnpaid(
      tx,
      order,
      'expired',
      failureOf(ErrorCode.CARD_DECLINED, 'The payment was not completed in time. Your card was not charged.'),
      'Expired',
      now,
    );
    // A payment the provider approves later is voided by the fulfil job.
    if (charge?.paymentId) await requestCompensation(tx, order.id, now);
  },
  async voidFailed(deps, orderId) {
    await voidFailedOrder(deps.db, deps.cardProvider(), orderId, deps.now);
  },
};
