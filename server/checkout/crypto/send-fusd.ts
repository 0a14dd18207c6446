import { eq } from 'drizzle-orm';
import type { FlowClient } from '../../chain/client';
import type { Log } from '../../clock';
import type { Database } from '../../db';
import { coinbaseCharges, orders } from '../../db/schema';
import type { JobHandler, JobRow } from '../../jobs';
import { orderSentBackFusd, refundAsFusd } from '../fusd-refund';
import { confirmedPaid } from './charges';

/**
 * The `sendFusd` job of a crypto charge (keyed by its id): FUSD from the platform's treasury to
 * the charge's wallet, once (the treasury keeps the transfer's transaction id on the charge).
 *
 * - A top-up paid in full: its amount; one that ended (expired, canceled) after a part was paid:
 *   that part back. The charge ends SEND_FUSD_SUCCEEDED.
 * - A purchase whose order could not be served (paid after it expired or was canceled, paid in
 *   part and then expired, or its edition could not be minted): what the buyer paid goes back; the
 *   order ends `refunded`, with the transfer on its timeline.
 * - The chain refuses the transfer (e.g. the wallet has no FUSD vault): SEND_FUSD_FAILED, for the
 *   operator; other failures (network, a seal not seen yet) are retried with the same key.
 */
export function createSendFusdHandler(deps: {
  db: Database;
  client: FlowClient;
  log?: Log;
  now?: () => Date;
}): JobHandler {
  const { db, client } = deps;
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? console;

  async function run(job: JobRow) {
    const [charge] = await db.select().from(coinbaseCharges).where(eq(coinbaseCharges.id, job.key));
    if (!charge || charge.status === 'SEND_FUSD_SUCCEEDED' || charge.status === 'SEND_FUSD_FAILED') return;
    const [order] = charge.orderId ? await db.select().from(orders).where(eq(orders.id, charge.orderId)) : [];
    let cents: number;
    if (charge.type === 'topup') {
      // Paid and confirmed: the amount asked; ended after a part arrived (EXPIRED, CANCELED): that part.
      // A payment only seen (PENDING) is never credited.
      if (confirmedPaid({ status: charge.status as never, context: charge.context })) cents = charge.amount;
      else if (charge.status === 'EXPIRED' || charge.status === 'CANCELED') cents = charge.paid;
      else return;
    } else {
      // Only a purchase that will not be served gives its payment back.
      if (!order || !['expired', 'canceled', 'refunded'].includes(order.status)) return;
      cents = charge.paid;
    }
    if (cents <= 0) return;
    await refundAsFusd(
      { db, client, log, now },
      {
        key: charge.id,
        to: charge.walletAddress,
        cents,
        what: `crypto charge ${charge.id}`,
        kept: charge.fusdTransactionId,
        write: (tx, { transactionId, ...values }) =>
          tx
            .update(coinbaseCharges)
            .set({ ...values, ...(transactionId && { fusdTransactionId: transactionId }) })
            .where(eq(coinbaseCharges.id, charge.id)),
        sent: order ? (tx, at) => orderSentBackFusd(tx, order.id, cents, at) : undefined,
      },
    );
  }

  return { run };
}
