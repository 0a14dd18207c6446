import { eq } from 'drizzle-orm';
import { formatUsd } from '#domain/money';
import type { FlowClient } from '../../chain/client';
import { FusdSendError, sendFusd } from '../../chain/treasury';
import type { Log } from '../../clock';
import type { Database } from '../../db';
import { coinbaseCharges, orders } from '../../db/schema';
import type { JobHandler, JobRow } from '../../jobs';
import { addEvent, lockOrder } from '../orders';
import { paidInFull } from './charges';

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
  const store = {
    async get(key: string) {
      const [row] = await db
        .select({ transactionId: coinbaseCharges.fusdTransactionId })
        .from(coinbaseCharges)
        .where(eq(coinbaseCharges.id, key));
      return row?.transactionId ? { transactionId: row.transactionId } : null;
    },
    async save(key: string, transactionId: string) {
      await db
        .update(coinbaseCharges)
        .set({ fusdTransactionId: transactionId, updatedAt: now() })
        .where(eq(coinbaseCharges.id, key));
    },
  };

  async function run(job: JobRow) {
    const [charge] = await db.select().from(coinbaseCharges).where(eq(coinbaseCharges.id, job.key));
    if (!charge || charge.status === 'SEND_FUSD_SUCCEEDED' || charge.status === 'SEND_FUSD_FAILED') return;
    const [order] = charge.orderId ? await db.select().from(orders).where(eq(orders.id, charge.orderId)) : [];
    let cents: number;
    if (charge.type === 'topup') {
      // Paid in full: the amount asked; ended after a part arrived (EXPIRED, CANCELED): that part.
      if (paidInFull({ status: charge.status as never, context: charge.context })) cents = charge.amount;
      else if (charge.status === 'EXPIRED' || charge.status === 'CANCELED') cents = charge.paid;
      else return;
    } else {
      // Only a purchase that will not be served gives its payment back.
      if (!order || !['expired', 'canceled', 'refunded'].includes(order.status)) return;
      cents = charge.paid;
    }
    if (cents <= 0) return;
    try {
      const { transactionId } = await sendFusd(
        client,
        { to: charge.walletAddress, cents, key: charge.id },
        store,
      );
      await db.transaction(async (tx) => {
        const at = now();
        await tx
          .update(coinbaseCharges)
          .set({ status: 'SEND_FUSD_SUCCEEDED', fusdTransactionId: transactionId, updatedAt: at })
          .where(eq(coinbaseCharges.id, charge.id));
        if (!order) return;
        const locked = await lockOrder(tx, order.id);
        if (!locked) return;
        await tx.update(orders).set({ status: 'refunded', updatedAt: at }).where(eq(orders.id, order.id));
        await addEvent(
          tx,
          order.id,
          'fusd_sent',
          at,
          `${formatUsd(cents)} was sent back as FUSD to your wallet.`,
        );
      });
    } catch (err) {
      if (!(err instanceof FusdSendError)) throw err;
      log.error(`crypto charge ${charge.id}: the FUSD transfer was refused: ${err.message}`);
      await db
        .update(coinbaseCharges)
        .set({ status: 'SEND_FUSD_FAILED', updatedAt: now() })
        .where(eq(coinbaseCharges.id, charge.id));
    }
  }

  return { run };
}
