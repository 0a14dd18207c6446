import { eq } from 'drizzle-orm';
import { formatUsd } from '#domain/money';
import type { FlowClient } from '../../chain/client';
import { FusdSendError, sendFusd } from '../../chain/treasury';
import type { Log } from '../../clock';
import type { Database } from '../../db';
import { orders, wertCharges } from '../../db/schema';
import type { JobHandler, JobRow } from '../../jobs';
import { addEvent, findOrder, lockOrder } from '../orders';
import { findWertCharge } from './queries';
import { PAID_STATUSES } from './wert';
/** Giving an on-ramp payment back: the wertRefund job, for a payment whose order will not be served. */

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
  const store = {
    async get(key: string) {
      const [row] = await db
        .select({ transactionId: wertCharges.fusdTransactionId })
        .from(wertCharges)
        .where(eq(wertCharges.id, key.replace(/^wert-/, '')));
      return row?.transactionId ? { transactionId: row.transactionId } : null;
    },
    async save(key: string, transactionId: string) {
      await db
        .update(wertCharges)
        .set({ fusdTransactionId: transactionId, updatedAt: now() })
        .where(eq(wertCharges.id, key.replace(/^wert-/, '')));
    },
  };

  async function run(job: JobRow) {
    const charge = await findWertCharge(db, job.key);
    if (!charge || !PAID_STATUSES.has(charge.status)) return;
    const order = await findOrder(db, charge.orderId);
    // Only a payment whose order will not be served goes back.
    if (!order || !['expired', 'canceled', 'declined', 'refunded'].includes(order.status)) return;
    try {
      const { transactionId } = await sendFusd(
        client,
        { to: charge.walletAddress, cents: charge.amount, key: `wert-${charge.id}` },
        store,
      );
      await db.transaction(async (tx) => {
        const at = now();
        await tx
          .update(wertCharges)
          .set({ status: 'SEND_FUSD_SUCCEEDED', fusdTransactionId: transactionId, updatedAt: at })
          .where(eq(wertCharges.id, charge.id));
        const locked = await lockOrder(tx, order.id);
        if (!locked) return;
        await tx.update(orders).set({ status: 'refunded', updatedAt: at }).where(eq(orders.id, order.id));
        await addEvent(
          tx,
          order.id,
          'fusd_sent',
          at,
          `${formatUsd(charge.amount)} was sent back as FUSD to your wallet.`,
        );
      });
    } catch (err) {
      if (!(err instanceof FusdSendError)) throw err;
      log.error(`on-ramp charge ${charge.id}: the FUSD transfer was refused: ${err.message}`);
      await db
        .update(wertCharges)
        .set({ status: 'SEND_FUSD_FAILED', updatedAt: now() })
        .where(eq(wertCharges.id, charge.id));
    }
  }

  return { run };
}
