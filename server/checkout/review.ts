import { eq } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import { formatUsd } from '#domain/money';
import type { Executor } from '../db';
import { orders } from '../db/schema';
import { failureOf } from './failures';
import { addEvent, type OrderRow, release } from './orders';

/**
 * A provider's payment settles an order only when it pays that order: the same amount, in the
 * order's currency. One that does not (a forged or tampered event, a provider's error) mints
 * nothing: the order is held for review (status `review`, failure PAYMENT_MISMATCH, its unit
 * released, its timeline saying what the provider reported), shown in the back office's charges
 * list, and an operator gives the payment back.
 */
export interface ReportedPayment {
  /** What the provider says was paid for the order, in cents of `currency`. */
  amount: number;
  currency: string;
}

/** Why the reported payment does not pay the order, or null when it does. */
export function paymentMismatch(order: Pick<OrderRow, 'amount' | 'currency'>, paid: ReportedPayment) {
  if (paid.currency.toUpperCase() !== order.currency.toUpperCase() || paid.amount !== order.amount)
    return `The payment provider reported ${describe(paid)} for an order of ${describe(order)}.`;
  return null;
}

const describe = (p: ReportedPayment) =>
  p.currency.toUpperCase() === 'USD' ? formatUsd(p.amount) : `${p.amount} cents of ${p.currency}`;

/** Holds an unpaid order (row locked) whose payment does not match it: see above. */
export async function holdForReview(tx: Executor, order: OrderRow, reason: string, now: Date) {
  const failure = failureOf(ErrorCode.PAYMENT_MISMATCH);
  await tx
    .update(orders)
    .set({ status: 'review', failureCode: failure.code, failureMessage: failure.message, updatedAt: now })
    .where(eq(orders.id, order.id));
  await release(tx, order, now);
  await addEvent(tx, order.id, 'review', now, reason);
}
