import { and, eq, inArray } from 'drizzle-orm';
import { ErrorCode, errorMessage } from '#domain/errors';
import type { CardChargeStatus, OrderStatus } from '#domain/schemas/checkout';
import { openWertChargeStatuses } from '#domain/schemas/wert';
import type { Database, Executor } from '../db';
import {
  cardCharges,
  coinbaseCharges,
  jobs,
  orders,
  tokenCharges,
  tokenTransactions,
  wertCharges,
} from '../db/schema';
import { enqueueJob } from '../jobs';
import { addEvent, FULFIL_JOB, lockOrder, type OrderRow, release, SEND_FUSD_JOB } from './orders';
/**
 * How an unpaid order fails (declined, canceled, expired) on each rail: its unit released, its
 * charge ended, its failure on the timeline, and a payment the provider may hold undone.
 */

export interface Failure {
  code: string;
  message: string;
}

export const failureOf = (code: string, message?: string): Failure => ({
  code,
  message: message ?? errorMessage({ code }),
});

/**
 * Requeues the order's `fulfil` job: it undoes a payment the provider may hold for a failed order
 * (void when authorized; it waits while the payment is still pending).
 */
export async function requestCompensation(tx: Executor, orderId: string, now: Date) {
  await enqueueJob(tx, FULFIL_JOB, orderId, now);
  // A job that already finished runs again: the provider authorized after all.
  await tx
    .update(jobs)
    .set({ status: 'queued', runAt: now, leaseUntil: null, lockedBy: null, updatedAt: now })
    .where(and(eq(jobs.kind, FULFIL_JOB), eq(jobs.key, orderId), inArray(jobs.status, ['done', 'failed'])));
}

type UnpaidEnd = Extract<OrderStatus, 'declined' | 'canceled' | 'expired'>;

/** An unpaid order (status created, row locked) ends: its status and failure, its unit released. */
async function endUnpaid(
  tx: Executor,
  order: OrderRow,
  status: UnpaidEnd,
  failure: Failure | null,
  now: Date,
) {
  await tx
    .update(orders)
    .set({
      status,
      failureCode: failure?.code ?? null,
      failureMessage: failure?.message ?? null,
      updatedAt: now,
    })
    .where(eq(orders.id, order.id));
  await release(tx, order, now);
}

/** The failure of an unpaid order that expired or was canceled, in the rail's words. */
const endedFailure = (
  status: 'expired' | 'canceled',
  messages: Record<'expired' | 'canceled', string>,
): Failure => ({
  code: status === 'expired' ? ErrorCode.EXPIRED : ErrorCode.CANCELED,
  message: messages[status],
});

/** Moves an unpaid card order (status created, row locked) to a failed status and releases its unit. */
export async function failUnpaid(
  tx: Executor,
  order: OrderRow,
  status: UnpaidEnd,
  failure: Failure | null,
  chargeStatus: CardChargeStatus,
  now: Date,
) {
  await endUnpaid(tx, order, status, failure, now);
  await tx
    .update(cardCharges)
    // Billing details kept for saving the card are not needed any more.
    .set({ status: chargeStatus, redirectUrl: null, saveCard: null, updatedAt: now })
    .where(eq(cardCharges.orderId, order.id));
  await addEvent(tx, order.id, status, now, failure?.message ?? null);
}

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

/** Fails an unpaid order for a reason found before or without the provider's answer. */
export async function failOrder(
  db: Database,
  orderId: string,
  status: Extract<OrderStatus, 'declined' | 'canceled'>,
  failure: Failure,
  now: Date,
  options: { compensate?: boolean } = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (order?.status !== 'created') return;
    await failUnpaid(tx, order, status, failure, status === 'declined' ? 'Declined' : 'Canceled', now);
    if (options.compensate) await requestCompensation(tx, orderId, now);
  });
}
