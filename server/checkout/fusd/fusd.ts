import { and, asc, eq } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import { formatUsd } from '#domain/money';
import type { FusdOrderJson, FusdPaymentJson, FusdPaymentStatus } from '#domain/schemas/fusd';
import { checkTransaction } from '../../chain/actions';
import type { FlowClient } from '../../chain/client';
import type { ExtraEvents } from '../../chain/events';
import { centsToUfix64 } from '../../chain/treasury';
import type { Log } from '../../clock';
import type { Database, Executor } from '../../db';
import { fusdPayments, orders } from '../../db/schema';
import { apiError } from '../../http';
import { enqueueJob, type JobHandler, type JobRow } from '../../jobs';
import { orderSentBackFusd, refundAsFusd } from '../fusd-refund';
import { orderJson } from '../order-json';
import { addEvent, authorizeOrder, lockOrder, type OrderRow } from '../orders';
import { methodOf, paidOn } from '../rails';
import { fusdRail, REFUND_FUSD_JOB } from './rail';

/**
 * New editions paid with the FUSD balance (order method fusd).
 *
 * The buyer's wallet pays the order's exact price to VitrineCheckout.pay (transactions/
 * pay_order.cdc), which puts it in the treasury and emits `Paid(orderId, amount, refundTo)`. Each
 * Paid event is applied once (unique by transaction and event index), whether the buyer reports
 * the transaction (PATCH fusd-orders/{id}) or the chain indexer reads it first:
 *
 * - it pays the order it names when that order waits for an FUSD payment (status created) and the
 *   amount is exactly its price: the payment is accepted (PAID), the order authorized and its
 *   `fulfil` job queued, which mints as for every rail (the payment follows: MINTING, MINTED, …);
 * - any other payment (short of or above the price, for an order that expired, was canceled or is
 *   paid already, or for no order of ours) is sent back in full to `refundTo` from the treasury
 *   (REFUND_PENDING, then the `refundFusd` job: SEND_FUSD_SUCCEEDED or SEND_FUSD_FAILED);
 * - an accepted payment whose edition could not be minted is sent back the same way.
 */

export type FusdPaymentRow = typeof fusdPayments.$inferSelect;

export { REFUND_FUSD_JOB } from './rail';

/** One VitrineCheckout.Paid event. */
export interface PaidEvent {
  transactionId: string;
  eventIndex: number;
  orderId: string;
  /** UFix64 text. */
  amount: string;
  refundTo: string;
}

/** A UFix64 amount in its smallest units (10⁻⁸). */
export function ufixUnits(amount: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,8}))?$/.exec(amount.trim());
  if (!m) throw new Error(`not a UFix64 amount: ${amount}`);
  return BigInt(m[1]!) * 100_000_000n + BigInt((m[2] ?? '').padEnd(8, '0'));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type EventLike = {
  type: string;
  transactionId: string;
  eventIndex: number | string;
  // biome-ignore lint/suspicious/noExplicitAny: decoded JSON-Cadence event data
  data: Record<string, any>;
};

/** The Paid events among a transaction's or a block range's events. */
export function paidEvents(events: EventLike[], paidType: string): PaidEvent[] {
  return events
    .filter((e) => e.type === paidType)
    .map((e) => ({
      transactionId: e.transactionId,
      eventIndex: Number(e.eventIndex),
      orderId: String(e.data.orderId ?? ''),
      amount: String(e.data.amount ?? '0'),
      refundTo: String(e.data.refundTo ?? ''),
    }));
}

export const paidEventType = (client: FlowClient) => client.eventType('VitrineCheckout', 'Paid');

export type FusdApplied = 'unchanged' | 'accepted' | 'refund';

/** Applies one Paid event (see above), inside the caller's transaction; a replay changes nothing. */
export async function applyFusdPayment(tx: Executor, e: PaidEvent, now: Date): Promise<FusdApplied> {
  const [seen] = await tx
    .select({ id: fusdPayments.id })
    .from(fusdPayments)
    .where(and(eq(fusdPayments.transactionId, e.transactionId), eq(fusdPayments.eventIndex, e.eventIndex)));
  if (seen) return 'unchanged';
  // The order is locked first, as the fulfil job and the expiry sweep lock it.
  const order = UUID.test(e.orderId) ? await lockOrder(tx, e.orderId) : undefined;
  const units = safeUnits(e.amount);
  const cents = Number(units / 1_000_000n);
  const pays =
    !!order &&
    paidOn(order, fusdRail) &&
    order.status === 'created' &&
    units === BigInt(order.amount) * 1_000_000n;
  const inserted = await tx
    .insert(fusdPayments)
    .values({
      transactionId: e.transactionId,
      eventIndex: e.eventIndex,
      orderRef: e.orderId.slice(0, 64),
      orderId: order?.id ?? null,
      amountFusd: e.amount,
      amount: cents,
      refundTo: e.refundTo,
      accepted: pays,
      status: pays ? 'PAID' : 'REFUND_PENDING',
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: fusdPayments.id });
  if (inserted.length === 0) return 'unchanged';
  const paymentId = inserted[0]!.id;
  if (pays) {
    await authorizeOrder(tx, order!.id, now, `Paid ${formatUsd(order!.amount)} from your FUSD balance.`);
    return 'accepted';
  }
  if (units > 0n) await enqueueJob(tx, REFUND_FUSD_JOB, paymentId, now);
  if (order?.buyerId) {
    await addEvent(
      tx,
      order.id,
      'payment_returned',
      now,
      order.status === 'created'
        ? `A payment of ${e.amount} FUSD did not match the price and is sent back to your wallet.`
        : `A payment of ${e.amount} FUSD arrived after the order ${order.status === 'expired' ? 'expired' : 'ended'} and is sent back to your wallet.`,
    );
  }
  return 'refund';
}

function safeUnits(amount: string): bigint {
  try {
    return ufixUnits(amount);
  } catch {
    return 0n;
  }
}

/**
 * Reads the sealed transaction `transactionId` and applies its Paid events. Throws
 * TRANSACTION_PENDING while it is not sealed (or not known yet), TRANSACTION when it failed or
 * pays nothing for `orderId`.
 */
export async function confirmFusdPayment(
  db: Database,
  client: FlowClient,
  orderId: string,
  transactionId: string,
  now: Date,
): Promise<FusdApplied[]> {
  const check = await checkTransaction(client, transactionId);
  if (check.state === 'unknown' || check.state === 'pending')
    throw apiError(409, ErrorCode.TRANSACTION_PENDING);
  if (check.state === 'failed')
    throw apiError(400, ErrorCode.TRANSACTION, 'transactionId', 'The payment transaction failed on chain.');
  const events = paidEvents(
    check.events.map((e) => ({ ...e, transactionId })),
    paidEventType(client),
  ).filter((e) => e.orderId === orderId);
  if (events.length === 0)
    throw apiError(
      400,
      ErrorCode.TRANSACTION,
      'transactionId',
      'This transaction pays nothing for this order.',
    );
  return db.transaction(async (tx) => {
    const applied: FusdApplied[] = [];
    for (const e of events) applied.push(await applyFusdPayment(tx, e, now));
    return applied;
  });
}

const paymentJson = (p: FusdPaymentRow): FusdPaymentJson => ({
  transactionId: p.transactionId,
  amount: p.amount,
  accepted: p.accepted,
  status: p.status as FusdPaymentStatus,
  refundTransactionId: p.refundTransactionId,
  createdAt: p.createdAt.toISOString(),
});

export async function fusdOrderJson(db: Executor, order: OrderRow): Promise<FusdOrderJson> {
  const payments = await db
    .select()
    .from(fusdPayments)
    .where(eq(fusdPayments.orderId, order.id))
    .orderBy(asc(fusdPayments.createdAt));
  return {
    id: order.id,
    amount: order.amount,
    fusdAmount: centsToUfix64(order.amount),
    expiresAt: order.expiresAt.toISOString(),
    payments: payments.map(paymentJson),
    order: await orderJson(db, order),
  };
}

/** The caller's balance order; undefined for an unknown one, someone else's or another method's. */
export async function ownFusdOrder(db: Executor, buyerId: string, orderId: string) {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.buyerId, buyerId), eq(orders.method, methodOf(fusdRail))));
  return row;
}

/**
 * The `refundFusd` job: the payment's amount back to its payer from the treasury, once (the
 * treasury keeps the transfer's transaction id on the payment). A refund of the payment that paid
 * an order ends that order `refunded`. The chain refusing the transfer leaves SEND_FUSD_FAILED for
 * the operator; other failures are retried with the same key.
 */
export function createRefundFusdHandler(deps: {
  db: Database;
  client: FlowClient;
  log?: Log;
  now?: () => Date;
}): JobHandler {
  const { db, client } = deps;
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? console;

  async function run(job: JobRow) {
    const [payment] = await db.select().from(fusdPayments).where(eq(fusdPayments.id, job.key));
    if (payment?.status !== 'REFUND_PENDING' || payment.amount <= 0) return;
    const { orderId, accepted } = payment;
    await refundAsFusd(
      { db, client, log, now },
      {
        key: payment.id,
        to: payment.refundTo,
        cents: payment.amount,
        what: `FUSD payment ${payment.id}`,
        kept: payment.refundTransactionId,
        write: (tx, { transactionId, ...values }) =>
          tx
            .update(fusdPayments)
            .set({ ...values, ...(transactionId && { refundTransactionId: transactionId }) })
            .where(eq(fusdPayments.id, payment.id)),
        sent: orderId ? (tx, at) => orderSentBackFusd(tx, orderId, payment.amount, at, accepted) : undefined,
      },
    );
  }
  return { run };
}

/** The indexer's hook: VitrineCheckout.Paid events read from the chain are applied as reported. */
export function fusdPaymentEvents(client: FlowClient): ExtraEvents {
  const type = paidEventType(client);
  return {
    type,
    async apply(tx, event, now) {
      const [paid] = paidEvents([event], type);
      return !!paid && (await applyFusdPayment(tx, paid, now)) !== 'unchanged';
    },
  };
}
