import { and, eq, inArray } from 'drizzle-orm';
import { ErrorCode, errorMessage } from '#domain/errors';
import type { OrderStatus } from '#domain/schemas/checkout';
import type { Executor } from '../db';
import { jobs, orders } from '../db/schema';
import { enqueueJob } from '../jobs';
import { FULFIL_JOB, type OrderRow, release } from './orders';
/**
 * What every rail's failure of an unpaid order shares (declined, canceled, expired: its status and
 * failure, its unit released); each rail ends its own charge (its rail.ts).
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

export type UnpaidEnd = Extract<OrderStatus, 'declined' | 'canceled' | 'expired'>;

/** An unpaid order (status created, row locked) ends: its status and failure, its unit released. */
export async function endUnpaid(
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
export const endedFailure = (
  status: 'expired' | 'canceled',
  messages: Record<'expired' | 'canceled', string>,
): Failure => ({
  code: status === 'expired' ? ErrorCode.EXPIRED : ErrorCode.CANCELED,
  message: messages[status],
});
