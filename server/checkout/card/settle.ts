import { and, eq } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import type { CardChargeStatus } from '#domain/schemas/checkout';
import { type Database, type Executor, uniqueViolation } from '../../db';
import { billingInfos, cardCharges, orders } from '../../db/schema';
import type { CardProvider, ProviderPayment } from '../../payments/provider';
import { declineCode, schemeAccepted } from '../billing/billing';
import { type Failure, failureOf, requestCompensation } from '../failures';
import {
  addEvent,
  authorizeOrder,
  type CardChargeRow,
  chargeOfOrder,
  findOrder,
  lockOrder,
  type OrderRow,
  type SaveCardDetails,
} from '../orders';
import { holdForReview, paymentMismatch } from '../review';
import { failUnpaid } from './failures';
/**
 * A card order's payment applied (settle), the buyer's cancel, and the void of a payment approved
 * for an order that failed (the card rail's, ./rail.ts).
 */

export type SettleOutcome =
  /** The payment waits for the buyer (3-D Secure). */
  | { kind: 'pending' }
  /** Approved: the order is authorized and its fulfil job queued. */
  | { kind: 'authorized' }
  /** The provider declined, or the payment expired or was canceled: the order failed. */
  | { kind: 'failed'; failure: Failure }
  /** Approved, but refused by the checkout (card brand, duplicate saved card): to be voided. */
  | { kind: 'refused'; failure: Failure }
  /** Approved for an order that is over (canceled, expired): to be voided. */
  | { kind: 'compensate' }
  /** Approved for another amount or currency than the order's: held for review, nothing minted. */
  | { kind: 'review' }
  /** Nothing changed (already settled, or not this order's payment). */
  | { kind: 'unchanged' };

const APPROVED_STATUSES = ['Authorized', 'Captured', 'Paid', 'Partially Captured'];

function providerFailure(payment: ProviderPayment): Failure {
  if (payment.status === 'Expired')
    return failureOf(
      ErrorCode.CARD_DECLINED,
      'The card check was not completed in time. Your card was not charged.',
    );
  if (payment.status === 'Canceled') return failureOf(ErrorCode.CARD_DECLINED);
  return failureOf(declineCode(payment.responseCode));
}

/** Keeps the new card the buyer asked to save; a refusal when the checkout does not take it. */
async function checkCard(
  tx: Executor,
  order: OrderRow,
  charge: CardChargeRow,
  payment: ProviderPayment,
  now: Date,
): Promise<Failure | null> {
  const source = payment.source;
  if (source?.scheme && !schemeAccepted(source.scheme)) return failureOf(ErrorCode.CARD_TYPE);
  const details = charge.saveCard as SaveCardDetails | null;
  if (!details || charge.billingInfoId || !source?.id || !source.last4) return null;
  const [same] = await tx
    .select({ id: billingInfos.id })
    .from(billingInfos)
    .where(and(eq(billingInfos.userId, order.buyerId), eq(billingInfos.lastFourDigits, source.last4)));
  if (same) return failureOf(ErrorCode.CARD_DUPLICATE);
  try {
    // A savepoint: a concurrent save of the same last four loses here without ending the settle.
    const row = await tx.transaction(async (sp) => {
      const [saved] = await sp
        .insert(billingInfos)
        .values({
          userId: order.buyerId,
          sourceId: source.id,
          lastFourDigits: source.last4!,
          scheme: source.scheme?.toUpperCase() ?? null,
          expiryMonth: source.expiryMonth,
          expiryYear: source.expiryYear,
          firstName: details.firstName,
          lastName: details.lastName || null,
          addressLine1: details.addressLine1,
          addressLine2: details.addressLine2 || null,
          city: details.city,
          state: details.state,
          country: details.country,
          zipCode: details.zipCode,
          phoneCountryCode: details.phoneNumber.countryCode,
          phoneNumber: details.phoneNumber.number,
          status: 'verified',
          createdAt: now,
        })
        .returning({ id: billingInfos.id });
      return saved!;
    });
    await tx
      .update(cardCharges)
      .set({ billingInfoId: row.id, saveCard: null })
      .where(eq(cardCharges.id, charge.id));
    return null;
  } catch (err) {
    if (uniqueViolation(err) === 'billing_infos_last4_unique') return failureOf(ErrorCode.CARD_DUPLICATE);
    throw err;
  }
}

/**
 * Applies the provider's view of the order's payment (its answer, a sync or a webhook), idempotent
 * by the order's status: approved for the order's amount and currency → authorized with a `fulfil`
 * job in the same transaction (for anything else → held for review, ./review.ts);
 * declined / expired / canceled → that status, unit released, failure stored; approved for an order
 * that failed meanwhile (canceled, expired) → the fulfil job voids it.
 */
export async function settle(
  db: Executor,
  orderId: string,
  payment: ProviderPayment,
  now: Date,
): Promise<SettleOutcome> {
  return db.transaction(async (tx): Promise<SettleOutcome> => {
    const order = await lockOrder(tx, orderId);
    // Only a card order has a card charge (below).
    if (!order) return { kind: 'unchanged' };
    if (payment.reference && payment.reference !== order.id) return { kind: 'unchanged' };
    const [charge] = await tx
      .select()
      .from(cardCharges)
      .where(eq(cardCharges.orderId, orderId))
      .for('update');
    if (!charge) return { kind: 'unchanged' };
    if (charge.paymentId && charge.paymentId !== payment.id) return { kind: 'unchanged' };
    const known = {
      paymentId: payment.id,
      last4: payment.source?.last4 ?? charge.last4,
      scheme: payment.source?.scheme?.toUpperCase() ?? charge.scheme,
      responseCode: payment.responseCode ?? charge.responseCode,
      responseSummary: payment.responseSummary ?? charge.responseSummary,
      updatedAt: now,
    };
    const open = order.status === 'created';

    if (payment.status === 'Pending') {
      if (open) {
        await tx
          .update(cardCharges)
          .set({ ...known, status: 'Pending', redirectUrl: payment.redirectUrl ?? charge.redirectUrl })
          .where(eq(cardCharges.id, charge.id));
        return { kind: 'pending' };
      }
      if (!charge.paymentId) await tx.update(cardCharges).set(known).where(eq(cardCharges.id, charge.id));
      return { kind: 'unchanged' };
    }

    if (payment.approved && APPROVED_STATUSES.includes(payment.status)) {
      if (open) {
        await tx.update(cardCharges).set(known).where(eq(cardCharges.id, charge.id));
        // An approval of another amount or currency does not pay this order (./review.ts).
        const mismatch = paymentMismatch(order, payment);
        if (mismatch) {
          await tx
            .update(cardCharges)
            .set({ status: 'Authorized', redirectUrl: null })
            .where(eq(cardCharges.id, charge.id));
          await holdForReview(tx, order, mismatch, now);
          return { kind: 'review' };
        }
        const refusal = await checkCard(tx, order, charge, payment, now);
        if (refusal) {
          await failUnpaid(tx, order, 'declined', refusal, 'Authorized', now);
          await requestCompensation(tx, order.id, now);
          return { kind: 'refused', failure: refusal };
        }
        await tx
          .update(cardCharges)
          .set({ status: 'Authorized', redirectUrl: null })
          .where(eq(cardCharges.id, charge.id));
        await authorizeOrder(tx, order.id, now, known.last4 ? `Card ending ${known.last4}` : null);
        return { kind: 'authorized' };
      }
      if (['canceled', 'expired', 'declined'].includes(order.status)) {
        // The provider authorized an order that is over: the job gives the money back.
        await tx
          .update(cardCharges)
          .set({ ...known, status: charge.status === 'Voided' ? 'Voided' : 'Authorized' })
          .where(eq(cardCharges.id, charge.id));
        if (charge.status !== 'Voided') {
          await requestCompensation(tx, order.id, now);
          return { kind: 'compensate' };
        }
      }
      return { kind: 'unchanged' };
    }

    if (['Declined', 'Expired', 'Canceled'].includes(payment.status)) {
      if (!open) {
        if (!charge.paymentId) await tx.update(cardCharges).set(known).where(eq(cardCharges.id, charge.id));
        return { kind: 'unchanged' };
      }
      await tx.update(cardCharges).set(known).where(eq(cardCharges.id, charge.id));
      const failure = providerFailure(payment);
      const status =
        payment.status === 'Declined' ? 'declined' : payment.status === 'Expired' ? 'expired' : 'canceled';
      await failUnpaid(tx, order, status, failure, payment.status as CardChargeStatus, now);
      return { kind: 'failed', failure };
    }
    // Voided, Refunded, Card Verified…: the checkout's own actions or not a purchase; nothing to do.
    if (!charge.paymentId) await tx.update(cardCharges).set(known).where(eq(cardCharges.id, charge.id));
    return { kind: 'unchanged' };
  });
}

/**
 * The buyer gives up an unpaid order: canceled, unit released. A payment the provider holds for it
 * is undone by the fulfil job. False when the order is no longer unpaid.
 */
export async function cancelOrder(db: Database, orderId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (order?.status !== 'created') return false;
    const charge = await chargeOfOrder(tx, orderId);
    await failUnpaid(tx, order, 'canceled', null, 'Canceled', now);
    if (charge?.paymentId) await requestCompensation(tx, orderId, now);
    return true;
  });
}

/**
 * Undoes what the provider holds for an order that failed before it was paid (declined by the
 * checkout, canceled, expired): an authorization is voided (key void-{orderId}); a canceled or
 * expired order is then `voided`. Throws while the payment is still pending, so the job waits.
 * Answers whether anything was undone.
 */
export async function voidFailedOrder(
  db: Database,
  provider: CardProvider,
  orderId: string,
  now: () => Date,
): Promise<boolean> {
  const order = await findOrder(db, orderId);
  if (!order || !['declined', 'canceled', 'expired'].includes(order.status)) return false;
  const charge = await chargeOfOrder(db, orderId);
  if (!charge?.paymentId || ['Voided', 'Refunded'].includes(charge.status)) return false;
  const payment = await provider.getPayment(charge.paymentId);
  if (payment.status === 'Pending')
    throw new Error(`payment ${payment.id} of order ${orderId} is still pending`);
  let undone: 'Voided' | 'Refunded' | null = null;
  if (payment.status === 'Authorized') {
    await provider.void(payment.id, `void-${orderId}`);
    undone = 'Voided';
  } else if (payment.status === 'Captured') {
    await provider.refund(payment.id, `refund-${orderId}`);
    undone = 'Refunded';
  } else if (payment.status === 'Voided' || payment.status === 'Refunded') {
    undone = payment.status;
  }
  if (!undone) return false;
  const status = undone;
  await db.transaction(async (tx) => {
    const locked = await lockOrder(tx, orderId);
    if (!locked) return;
    const at = now();
    await tx.update(cardCharges).set({ status, updatedAt: at }).where(eq(cardCharges.orderId, orderId));
    if (locked.status === 'canceled' || locked.status === 'expired') {
      await tx.update(orders).set({ status: 'voided', updatedAt: at }).where(eq(orders.id, orderId));
    }
    await addEvent(
      tx,
      orderId,
      status === 'Voided' ? 'voided' : 'refunded',
      at,
      'The card payment was undone; you were not charged.',
    );
  });
  return true;
}
