import { and, asc, eq, lt } from 'drizzle-orm';
import type { Database } from '../../db';
import { orders } from '../../db/schema';
import { lockOrder } from '../orders';
import { railOf } from '../rails';

/**
 * The expiry sweep: unpaid orders past their time are ended by their rail (`expire`: expired, unit
 * released, its charge ended; a payment the provider completes later is given back by the rail's
 * compensation). Answers how many expired.
 */
export async function expireOrders(db: Database, now: Date, limit = 200): Promise<number> {
  const due = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.reserved, true), eq(orders.status, 'created'), lt(orders.expiresAt, now)))
    .orderBy(asc(orders.expiresAt))
    .limit(limit);
  let expired = 0;
  for (const { id } of due) {
    await db.transaction(async (tx) => {
      const order = await lockOrder(tx, id);
      if (order?.status !== 'created' || order.expiresAt >= now) return;
      await railOf(order.method).expire(tx, order, now);
      expired++;
    });
  }
  return expired;
}
