import { and, eq } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import { freeBlueprintClaims } from '../../db/schema';
import { apiError } from '../../http';
import { enqueueJob } from '../../jobs';
import { addEvent, FULFIL_JOB, ORDER_TTL_MS } from '../orders';
import type { PaymentRail } from '../payment-rail';

/** A free claim's failure when its edition could not be minted. */
export const CLAIM_MINT_FAILED_MESSAGE = 'The edition could not be minted. You can claim it again.';

/**
 * The free claim: nothing to pay. One claim per buyer and item (CLAIM_BLUEPRINT); the order is
 * authorized at reservation for 0 with its claim row and its `fulfil` job; a claim whose edition
 * could not be minted is voided and its claim row deleted (the buyer may claim again).
 */
export const freeClaimRail: PaymentRail = {
  orderTtlMs: ORDER_TTL_MS,
  free: true,
  mintFailedMessage: CLAIM_MINT_FAILED_MESSAGE,
  charge: (input) => ({
    async pending(tx) {
      const [claimed] = await tx
        .select({ id: freeBlueprintClaims.id })
        .from(freeBlueprintClaims)
        .where(
          and(
            eq(freeBlueprintClaims.userId, input.buyerId),
            eq(freeBlueprintClaims.blueprintId, input.item.id),
          ),
        );
      if (claimed)
        throw apiError(400, ErrorCode.CLAIM_BLUEPRINT, undefined, 'You have already claimed this item.');
      return undefined;
    },
    async attach(tx, order) {
      await tx.insert(freeBlueprintClaims).values({
        userId: input.buyerId,
        blueprintId: input.item.id,
        orderId: order.id,
        createdAt: input.now,
      });
      await addEvent(tx, order.id, 'authorized', input.now, 'Free claim: nothing to pay.');
      await enqueueJob(tx, FULFIL_JOB, order.id, input.now);
    },
  }),
  // No payment record: the claim row is the record.
  setStatus: async () => undefined,
  async compensate(tx, order) {
    await tx.delete(freeBlueprintClaims).where(eq(freeBlueprintClaims.orderId, order.id));
  },
  // A claim is authorized at once and never waits unpaid.
  expire: async () => undefined,
};
