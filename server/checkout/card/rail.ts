import { and, eq, gt } from 'drizzle-orm';
import type { Executor } from '../../db';
import { cardCharges, orders } from '../../db/schema';
import type { ReserveInput, SaveCardDetails } from '../orders';

/**
 * What reserve() needs of the card rail: another unpaid card order of the buyer (one at a time:
 * CHARGE_PENDING), and the order's card charge, written in the reservation's transaction with the
 * saved card it pays with, or the new card's details to save once the payment is approved.
 */
export function cardRail(
  buyerId: string,
  now: Date,
  card: { billingInfoId: string | null; saveCard: SaveCardDetails | null },
): NonNullable<ReserveInput['rail']> {
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
