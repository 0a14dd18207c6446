import { eq } from 'drizzle-orm';
import type { CardChargeStatus, OrderStatus } from '#domain/schemas/checkout';
import type { Database, Executor } from '../../db';
import { cardCharges } from '../../db/schema';
import { endUnpaid, type Failure, requestCompensation, type UnpaidEnd } from '../failures';
import { addEvent, lockOrder, type OrderRow } from '../orders';

/** How an unpaid card order fails: declined, canceled or expired, its charge with it. */

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
