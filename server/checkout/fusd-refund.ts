import { eq } from 'drizzle-orm';
import { formatUsd } from '#domain/money';
import type { FlowClient } from '../chain/client';
import { FusdSendError, sendFusd } from '../chain/treasury';
import type { Log } from '../clock';
import type { Database, Executor } from '../db';
import { orders } from '../db/schema';
import { enqueueJob } from '../jobs';
import { addEvent, lockOrder } from './orders';

/** Writes these values to the refund's payment row, in `tx`. */
export type WriteRefundRow = (
  tx: Executor,
  values: { transactionId?: string; status?: 'SEND_FUSD_SUCCEEDED' | 'SEND_FUSD_FAILED'; updatedAt: Date },
) => Promise<unknown>;

export interface FusdRefund {
  /** The transfer's key: a retried job carries the same one, and resumes the transfer. */
  key: string;
  /** The buyer's Flow address. */
  to: string;
  cents: number;
  /** The payment, as the operator's log names it. */
  what: string;
  /** The transaction id of the transfer an earlier attempt signed, as the payment's row keeps it. */
  kept: string | null;
  write: WriteRefundRow;
  /** What the sent refund does beside it (to the order), in the transaction that ends the row. */
  sent?: (tx: Executor, at: Date) => Promise<void>;
}

/**
 * Sends a payment back as FUSD from the treasury, once per key: the transfer's transaction id is
 * kept on the payment's row before the transaction leaves, so a retry resumes that transfer rather
 * than paying a second time. Sealed: the row ends SEND_FUSD_SUCCEEDED, and `sent` runs in the same
 * transaction. Refused by the chain (no FUSD vault, a short treasury): the row ends
 * SEND_FUSD_FAILED, for an operator. Any other failure throws, and the job is retried.
 */
export async function refundAsFusd(
  deps: { db: Database; client: FlowClient; log: Log; now: () => Date },
  refund: FusdRefund,
): Promise<void> {
  const { db, client, log, now } = deps;
  const store = {
    get: async () => (refund.kept ? { transactionId: refund.kept } : null),
    save: async (_key: string, transactionId: string) => {
      await refund.write(db, { transactionId, updatedAt: now() });
    },
  };
  try {
    const { transactionId } = await sendFusd(
      client,
      { to: refund.to, cents: refund.cents, key: refund.key },
      store,
    );
    await db.transaction(async (tx) => {
      const at = now();
      await refund.write(tx, { status: 'SEND_FUSD_SUCCEEDED', transactionId, updatedAt: at });
      await refund.sent?.(tx, at);
    });
  } catch (err) {
    if (!(err instanceof FusdSendError)) throw err;
    log.error(`${refund.what}: the FUSD transfer was refused: ${err.message}`);
    await refund.write(db, { status: 'SEND_FUSD_FAILED', updatedAt: now() });
  }
}

/**
 * A payment that arrived after its order ended (the edition let go): the order is not served, its
 * timeline says so, and `job` (keyed by the payment) sends the payment back as FUSD.
 */
export async function refundLateAsFusd(tx: Executor, orderId: string, job: string, key: string, at: Date) {
  await addEvent(
    tx,
    orderId,
    'paid_late',
    at,
    'Your payment arrived after the order ended: it is refunded as FUSD to your wallet.',
  );
  await enqueueJob(tx, job, key, at);
}

/**
 * A payment of an order went back as FUSD: the order (locked) ends `refunded` when that payment
 * had paid it, and its timeline says what was sent back (`fusd_sent`, or `payment_returned_sent`
 * for a payment the order never took), once.
 */
export async function orderSentBackFusd(
  tx: Executor,
  orderId: string,
  cents: number,
  at: Date,
  paidTheOrder = true,
): Promise<void> {
  const order = await lockOrder(tx, orderId);
  if (!order) return;
  if (paidTheOrder) {
    await tx.update(orders).set({ status: 'refunded', updatedAt: at }).where(eq(orders.id, orderId));
  }
  await addEvent(
    tx,
    orderId,
    paidTheOrder ? 'fusd_sent' : 'payment_returned_sent',
    at,
    `${formatUsd(cents)} was sent back as FUSD to your wallet.`,
  );
}
