import { eq } from 'drizzle-orm';
import { tokenCharges } from '../../db/schema';
import { enqueueJob } from '../../jobs';
import { failUnpaidToken, REFUND_TOKEN_JOB } from '../failures';
import { ORDER_TTL_MS } from '../orders';
import type { PaymentRail } from '../payment-rail';

/** An NFM order's failure when its edition could not be minted. */
export const TOKEN_MINT_FAILED_MESSAGE =
  'The edition could not be minted; your NFM is sent back to the address that paid it.';

/**
 * The utility-token rail (NFM, ./token.ts): the order is paid when its transfer is read from the EVM
 * chain (nothing to capture); what must go back is sent back in NFM to the address that paid it
 * (the refundToken job, keyed by the charge). The reservation's charge is `createTokenCharge`'s.
 */
export const tokenRail: PaymentRail = {
  orderTtlMs: ORDER_TTL_MS,
  mintFailedMessage: TOKEN_MINT_FAILED_MESSAGE,
  async setStatus(tx, orderId, status, at) {
    await tx.update(tokenCharges).set({ status, updatedAt: at }).where(eq(tokenCharges.orderId, orderId));
  },
  async compensate(tx, order, at) {
    const [charge] = await tx
      .select({ id: tokenCharges.id })
      .from(tokenCharges)
      .where(eq(tokenCharges.orderId, order.id));
    if (charge) await enqueueJob(tx, REFUND_TOKEN_JOB, charge.id, at);
  },
  expire: (tx, order, now) => failUnpaidToken(tx, order, 'expired', now),
};
