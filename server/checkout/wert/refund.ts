import { eq } from 'drizzle-orm';
import type { FlowClient } from '../../chain/client';
import type { Log } from '../../clock';
import type { Database } from '../../db';
import { wertCharges } from '../../db/schema';
import type { JobHandler, JobRow } from '../../jobs';
import { orderSentBackFusd, refundAsFusd } from '../fusd-refund';
import { findOrder } from '../orders';
import { findWertCharge } from './queries';
import { PAID_STATUSES } from './wert';

/**
 * The `wertRefund` job of a paid on-ramp charge whose order was not served (paid after it ended,
 * or its edition could not be minted): the amount paid goes back as FUSD from the treasury to the
 * buyer's wallet, once (the transfer's id is kept on the charge before it is sent). The charge
 * ends SEND_FUSD_SUCCEEDED and the order `refunded` with a `fusd_sent` event; a transfer the chain
 * refuses ends SEND_FUSD_FAILED, for an operator.
 */
export function createWertRefundHandler(deps: {
  db: Database;
  client: FlowClient;
  log?: Log;
  now?: () => Date;
}): JobHandler {
  const { db, client } = deps;
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? console;

  async function run(job: JobRow) {
    const charge = await findWertCharge(db, job.key);
    if (!charge || !PAID_STATUSES.has(charge.status)) return;
    const order = await findOrder(db, charge.orderId);
    // Only a payment whose order will not be served goes back.
    if (!order || !['expired', 'canceled', 'declined', 'refunded'].includes(order.status)) return;
    await refundAsFusd(
      { db, client, log, now },
      {
        key: `wert-${charge.id}`,
        to: charge.walletAddress,
        cents: charge.amount,
        what: `on-ramp charge ${charge.id}`,
        kept: charge.fusdTransactionId,
        write: (tx, { transactionId, ...values }) =>
          tx
            .update(wertCharges)
            .set({ ...values, ...(transactionId && { fusdTransactionId: transactionId }) })
            .where(eq(wertCharges.id, charge.id)),
        sent: (tx, at) => orderSentBackFusd(tx, order.id, charge.amount, at),
      },
    );
  }

  return { run };
}
