import { and, eq, max } from 'drizzle-orm';
import type { Executor } from '../db';
import {
  cardCharges,
  coinbaseCharges,
  fusdPayments,
  mints,
  nfts,
  orderItems,
  tokenCharges,
  wertCharges,
} from '../db/schema';
import type { OrderRow } from './orders';

/**
 * The SQL the fulfil job runs beside its steps: the order's card charge, the status of the order's
 * payment record on each rail, and the next serial number of a blueprint.
 */

/** The order's card charge. */
export const chargeOf = async (db: Executor, orderId: string) =>
  (await db.select().from(cardCharges).where(eq(cardCharges.orderId, orderId)))[0];

/** The order's payment record (card charge, crypto charge, on-ramp charge…) takes the status of its step. */
export async function setRailStatus(
  tx: Executor,
  order: Pick<OrderRow, 'id' | 'method'>,
  status: string,
  at: Date,
) {
  if (order.method === 'creditCard')
    await tx.update(cardCharges).set({ status, updatedAt: at }).where(eq(cardCharges.orderId, order.id));
  else if (order.method === 'wert')
    await tx.update(wertCharges).set({ status, updatedAt: at }).where(eq(wertCharges.orderId, order.id));
  else if (order.method === 'coinbase')
    await tx
      .update(coinbaseCharges)
      .set({ status, updatedAt: at })
      .where(eq(coinbaseCharges.orderId, order.id));
  else if (order.method === 'fusd')
    await tx
      .update(fusdPayments)
      .set({ status, updatedAt: at })
      .where(and(eq(fusdPayments.orderId, order.id), eq(fusdPayments.accepted, true)));
  else if (order.method === 'token')
    await tx.update(tokenCharges).set({ status, updatedAt: at }).where(eq(tokenCharges.orderId, order.id));
}

/** The next edition of a blueprint after every one minted, being minted or assigned. */
export async function nextSerial(tx: Executor, flowBlueprintId: number): Promise<number> {
  const [a] = await tx
    .select({ n: max(mints.serialNumber) })
    .from(mints)
    .where(eq(mints.blueprintId, flowBlueprintId));
  const [b] = await tx
    .select({ n: max(orderItems.serialNumber) })
    .from(orderItems)
    .where(eq(orderItems.flowBlueprintId, flowBlueprintId));
  const [c] = await tx
    .select({ n: max(nfts.serialNumber) })
    .from(nfts)
    .where(eq(nfts.blueprintId, flowBlueprintId));
  return Math.max(Number(a?.n ?? 0), Number(b?.n ?? 0), Number(c?.n ?? 0)) + 1;
}
