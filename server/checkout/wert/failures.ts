import { and, eq, inArray } from 'drizzle-orm';
import { openWertChargeStatuses } from '#domain/schemas/wert';
import type { Executor } from '../../db';
import { wertCharges } from '../../db/schema';
import { endUnpaid, type Failure, type UnpaidEnd } from '../failures';
import { addEvent, type OrderRow } from '../orders';

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
