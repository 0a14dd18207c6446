import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../../db';
import { orders, wertCharges } from '../../db/schema';
import type { OnrampOrder, OnrampProvider } from '../../payments/onramp-provider';
import { refundLateAsFusd } from '../fusd-refund';
import { addEvent, authorizeOrder, lockOrder } from '../orders';
import { failUnpaidWert } from './failures';
import {
  advances,
  CANCELLABLE,
  confirmsPurchase,
  FAILOVER,
  PAID_STATUSES,
  statusOf,
  UNPAID_ENDS,
  WERT_PAYING_TTL_MS,
  WERT_REFUND_JOB,
  type WertChargeRow,
} from './wert';
/**
 * What the provider confirms, applied to the charge and its order (settleWert), and the buyer's
 * sync and cancel, which ask the provider first (the rules are in wert.ts).
 */

export type WertSettleOutcome =
  | { kind: 'unchanged' }
  /** The card payment started: the order is held for it. */
  | { kind: 'pending' }
  /** Paid: the order is authorized and its fulfil job queued. */
  | { kind: 'authorized' }
  /** Paid for an order that ended: the payment goes back (wertRefund job). */
  | { kind: 'refund' }
  /** The provider's order failed, was canceled or failed over: the order failed. */
  | { kind: 'failed' };

async function lockCharge(tx: Executor, id: string) {
  const [row] = await tx.select().from(wertCharges).where(eq(wertCharges.id, id)).for('update');
  return row;
}

const FAILURES: Record<
  'failed' | 'canceled' | 'failover',
  { status: 'declined' | 'canceled'; code: string; message: string }
> = {
  failed: {
    status: 'declined',
    code: 'PURCHASE_FAILED',
    message: 'The card payment did not go through. You were not charged.',
  },
  canceled: {
    status: 'canceled',
    code: 'CANCELED',
    message: 'The payment was canceled. You were not charged.',
  },
  failover: {
    status: 'declined',
    code: 'PURCHASE_FAILED',
    message:
      'The purchase could not be completed on chain, so nothing was minted. The on-ramp gives back what you paid.',
  },
};

/** What the failover's end adds to the order's timeline: where the money the buyer paid went. */
const FAILOVER_ENDS: Record<'failover_complete' | 'failover_cancelled', string> = {
  failover_complete: 'The on-ramp sent the FUSD you paid for to your wallet instead.',
  failover_cancelled: 'The on-ramp did not send the FUSD to your wallet: it gives your card payment back.',
};

/** The provider's statuses that end an unpaid order, by the failure they give it. */
const FAILED_BY: Record<string, keyof typeof FAILURES> = {
  failed: 'failed',
  canceled: 'canceled',
  failover: 'failover',
  failover_complete: 'failover',
  failover_cancelled: 'failover',
};

/** Applies what the provider confirms of one of its orders (see the module comment); one transaction, repeatable. */
export async function settleWert(
  db: Executor,
  chargeId: string,
  po: OnrampOrder,
  now: Date,
): Promise<WertSettleOutcome> {
  const next = statusOf(po);
  if (!next) return { kind: 'unchanged' };
  return db.transaction(async (tx): Promise<WertSettleOutcome> => {
    // The order is locked before its charge, as the fulfil job and the expiry sweep lock them.
    const [ref] = await tx
      .select({ orderId: wertCharges.orderId })
      .from(wertCharges)
      .where(eq(wertCharges.id, chargeId));
    if (!ref) return { kind: 'unchanged' };
    const order = await lockOrder(tx, ref.orderId);
    const row = await lockCharge(tx, chargeId);
    if (!row || !order || !confirmsPurchase(row, po)) return { kind: 'unchanged' };
    // Another provider order of this purchase: only a new attempt after an unpaid end (the buyer
    // paid again in the widget) replaces the one recorded.
    const replacing = row.providerOrderId !== null && row.providerOrderId !== po.id;
    if (replacing && !(UNPAID_ENDS.has(row.status) && (po.status === 'pending' || po.status === 'success')))
      return { kind: 'unchanged' };
    const moves = advances(row.status, next);
    const txId = po.txId ?? (replacing ? null : row.txId);
    if (moves || row.providerOrderId !== po.id || txId !== row.txId) {
      await tx
        .update(wertCharges)
        .set({ providerOrderId: po.id, txId, ...(moves ? { status: next } : {}), updatedAt: now })
        .where(eq(wertCharges.id, row.id));
    }
    const open = order.status === 'created';
    if (po.status === 'success') {
      if (open) {
        await authorizeOrder(tx, order.id, now, `Paid by card through the on-ramp (order ${po.id}).`);
        return { kind: 'authorized' };
      }
      if (moves && ['expired', 'canceled', 'declined'].includes(order.status)) {
        await refundLateAsFusd(tx, order.id, WERT_REFUND_JOB, row.id, now);
        return { kind: 'refund' };
      }
      return { kind: 'unchanged' };
    }
    const failoverEnd =
      moves && (next === 'failover_complete' || next === 'failover_cancelled') ? next : null;
    if (!open) {
      // Ended already (by the contract call's failure, or expiry): the failover says where the money went.
      if (failoverEnd) await addEvent(tx, order.id, failoverEnd, now, FAILOVER_ENDS[failoverEnd]);
      return { kind: 'unchanged' };
    }
    if (po.status === 'pending') {
      // The money is on its way: the unit stays reserved for it.
      const until = new Date(now.getTime() + WERT_PAYING_TTL_MS);
      if (order.expiresAt < until)
        await tx.update(orders).set({ expiresAt: until, updatedAt: now }).where(eq(orders.id, order.id));
      await addEvent(tx, order.id, 'payment_started', now, 'Your card payment started.');
      return moves ? { kind: 'pending' } : { kind: 'unchanged' };
    }
    const by = FAILED_BY[po.status];
    if (!by || replacing) return { kind: 'unchanged' };
    const failure = FAILURES[by];
    await failUnpaidWert(tx, order, failure.status, failure, null, now);
    if (failoverEnd) await addEvent(tx, order.id, failoverEnd, now, FAILOVER_ENDS[failoverEnd]);
    return { kind: 'failed' };
  });
}

/**
 * Asks the provider for the charge's orders and applies each (oldest first); answers the last
 * outcome that changed something. Throws OnrampProviderUnavailableError when it cannot be asked.
 */
export async function syncWert(
  db: Database,
  provider: OnrampProvider,
  row: Pick<WertChargeRow, 'id'>,
  now: Date,
): Promise<WertSettleOutcome> {
  const found = (await provider.findOrders(row.id)).filter((o) => o.clickId === row.id).reverse();
  let outcome: WertSettleOutcome = { kind: 'unchanged' };
  for (const po of found) {
    const settled = await settleWert(db, row.id, po, now);
    if (settled.kind !== 'unchanged') outcome = settled;
  }
  return outcome;
}

/**
 * The buyer gives the purchase up: allowed while the charge is `created` or only the browser
 * reported progress (`paymentStarted`, `transferStarted`) and its order unpaid; the caller has
 * asked the provider first (a payment it confirms is applied instead, and the cancel refused).
 * Answers `canceled` (now, or the order had already ended unpaid) or `refused`.
 */
export async function cancelWert(db: Database, chargeId: string, now: Date): Promise<'canceled' | 'refused'> {
  return db.transaction(async (tx) => {
    const [ref] = await tx
      .select({ orderId: wertCharges.orderId })
      .from(wertCharges)
      .where(eq(wertCharges.id, chargeId));
    if (!ref) return 'refused';
    const order = await lockOrder(tx, ref.orderId);
    const row = await lockCharge(tx, chargeId);
    if (!row || !order) return 'refused';
    // Already over without a payment (canceled, expired, or the provider's order failed): nothing to undo.
    if (['canceled', 'expired', 'declined'].includes(order.status) && !PAID_STATUSES.has(row.status))
      return 'canceled';
    if (order.status !== 'created' || !CANCELLABLE.has(row.status)) return 'refused';
    await failUnpaidWert(
      tx,
      order,
      'canceled',
      { code: 'CANCELED', message: 'Your purchase was canceled. You were not charged.' },
      'canceled',
      now,
    );
    return 'canceled';
  });
}

/** Whether a provider order means money was taken or is moving (the buyer may no longer cancel). */
export const paymentLive = (po: OnrampOrder) =>
  po.status === 'pending' || po.status === 'success' || FAILOVER.has(statusOf(po) ?? '');
