import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import { formatUsd } from '#domain/money';
import type { CoinbaseChargeJson, CoinbaseChargeStatus } from '#domain/schemas/crypto';
import type { Database, Executor } from '../../db';
import { coinbaseCharges, orders } from '../../db/schema';
import { enqueueJob } from '../../jobs';
import type { CryptoCharge } from '../../payments/crypto-provider';
import { refundLateAsFusd } from '../fusd-refund';
import { orderJson } from '../order-json';
import { addEvent, authorizeOrder, chargePending, findOrder, lockOrder, SEND_FUSD_JOB } from '../orders';
import { holdForReview, paymentMismatch } from '../review';
import { CRYPTO_CHARGE_TTL_MS, failUnpaidCrypto, pendingCryptoCharge } from './pending';

/**
 * Crypto charges (docs/checkout.md "Crypto"): a hosted charge at the crypto provider pays for an
 * order (directPurchase) or tops up the FUSD balance (topup). The provider's word — the create
 * answer, a signed webhook, or a read when the buyer comes back — is applied by `settleCrypto`,
 * whichever comes first and however often:
 *
 * - PENDING: paid in full but not yet confirmed by the network (seen, may still fail). An unpaid
 *   order keeps its unit while the network confirms (its hold is extended by CONFIRMATION_HOLD_MS
 *   and its timeline says the payment was seen); nothing is minted, sent or given back yet.
 * - COMPLETED, RESOLVED, or UNRESOLVED because OVERPAID or DELAYED (paid after expiry): paid and
 *   confirmed. An unpaid order is authorized and its fulfil job queued (the edition is minted,
 *   nothing to capture); an order already released (expired or canceled) cannot be served, so what
 *   was paid goes back as FUSD; a top-up's FUSD is sent (sendFusd job). Nothing is ever sent or
 *   minted on a payment the network has not confirmed.
 * - UNRESOLVED UNDERPAID: the order waits (the buyer can still pay the rest on the hosted page, or
 *   cancel; at expiry what arrived goes back as FUSD).
 * - EXPIRED, CANCELED: the order fails and its unit is released.
 *
 * Statuses past the provider's (MINTING … SEND_FUSD_FAILED) are ours and are never overwritten by
 * a late provider status.
 */

export type CoinbaseChargeRow = typeof coinbaseCharges.$inferSelect;

/**
 * How far along the provider's statuses are: a charge only moves forward (a late or repeated
 * delivery of an older status changes nothing). NEW → PENDING or UNRESOLVED → COMPLETED, RESOLVED,
 * EXPIRED or CANCELED; a charge that ended (at the provider, or here when its order expired) and is
 * paid afterwards moves on again.
 */
const PROVIDER_RANK: Record<string, number> = {
  NEW: 0,
  PENDING: 1,
  UNRESOLVED: 1,
  COMPLETED: 2,
  RESOLVED: 2,
  EXPIRED: 2,
  CANCELED: 2,
};
const PROVIDER_STATUSES = new Set(Object.keys(PROVIDER_RANK));
function advances(from: string, to: CryptoCharge) {
  // A payment is news whatever the charge showed before: one made after it expired or was ended.
  if (ENDED.has(from) && (paidInFull(to) || to.status === 'UNRESOLVED')) return true;
  return PROVIDER_RANK[to.status]! >= PROVIDER_RANK[from]!;
}
/** Ended without being paid in full: whatever arrived goes back. */
const ENDED = new Set(['EXPIRED', 'CANCELED']);
const PAID_CONTEXTS = new Set(['OVERPAID', 'DELAYED']);

/** Whether the provider says the charge is paid in full and the network confirmed the payment. */
export const confirmedPaid = (c: Pick<CryptoCharge, 'status' | 'context'>) =>
  c.status === 'COMPLETED' ||
  c.status === 'RESOLVED' ||
  (c.status === 'UNRESOLVED' && PAID_CONTEXTS.has(c.context ?? ''));

/** Whether the provider says the charge is paid in full, confirmed or not yet (PENDING). */
export const paidInFull = (c: Pick<CryptoCharge, 'status' | 'context'>) =>
  c.status === 'PENDING' || confirmedPaid(c);

/**
 * An unpaid order whose payment the network has seen (PENDING) holds its unit at least this long
 * from then: confirmations of a slow coin take up to an hour, and a confirmed payment for an order
 * that expired meanwhile would have to go back.
 */
export const CONFIRMATION_HOLD_MS = 2 * 60 * 60_000;

export type CryptoSettleOutcome =
  | { kind: 'unchanged' }
  | { kind: 'confirming' }
  /** The provider's charge does not pay the order or top-up (price, currency, paid): held for review. */
  | { kind: 'review' }
  | { kind: 'authorized' }
  | { kind: 'failed' }
  | { kind: 'refund' }
  | { kind: 'topup' };

/** The buyer's charge (row locked when in a transaction). */
async function lockCharge(tx: Executor, id: string) {
  const [row] = await tx.select().from(coinbaseCharges).where(eq(coinbaseCharges.id, id)).for('update');
  return row;
}

/**
 * A charge and its order (if any), both locked: the order first, in the order the fulfil job and the
 * expiry sweep lock them. A charge's webhook and the request that opened it can run at the same
 * moment, and locks taken in opposite orders would deadlock.
 */
async function lockChargeWithOrder(tx: Executor, id: string) {
  const [ref] = await tx
    .select({ orderId: coinbaseCharges.orderId })
    .from(coinbaseCharges)
    .where(eq(coinbaseCharges.id, id));
  if (!ref) return { order: undefined, row: undefined };
  const order = ref.orderId ? await lockOrder(tx, ref.orderId) : undefined;
  return { order, row: await lockCharge(tx, id) };
}

/**
 * A top-up charge (FUSD bought with crypto) the provider reports on: paid and confirmed, the amount asked is sent;
 * ended after a part arrived, that part goes back; another price, or less than its price, goes to REVIEW.
 */
async function settleTopup(
  tx: Executor,
  row: CoinbaseChargeRow,
  charge: CryptoCharge,
  paid: boolean,
  now: Date,
): Promise<CryptoSettleOutcome> {
  // Paid and confirmed: the amount asked is sent; ended after a part arrived: that part goes back.
  if (!paid && !(ENDED.has(charge.status) && charge.paid > 0)) return { kind: 'unchanged' };
  // A charge of another price, or "paid" with less than its price, credits nothing: REVIEW.
  if (
    paid &&
    (paymentMismatch({ amount: row.amount, currency: 'USD' }, charge) || charge.paid < row.amount)
  ) {
    await tx
      .update(coinbaseCharges)
      .set({ status: 'REVIEW', updatedAt: now })
      .where(eq(coinbaseCharges.id, row.id));
    return { kind: 'review' };
  }
  await enqueueJob(tx, SEND_FUSD_JOB, row.id, now);
  return { kind: 'topup' };
}

/** Applies what the provider says of a charge (see above); one transaction, safe to repeat. */
export async function settleCrypto(
  db: Executor,
  chargeId: string,
  charge: CryptoCharge,
  now: Date,
): Promise<CryptoSettleOutcome> {
  return db.transaction(async (tx): Promise<CryptoSettleOutcome> => {
    const { order, row } = await lockChargeWithOrder(tx, chargeId);
    if (!row) return { kind: 'unchanged' };
    if (row.providerChargeId && row.providerChargeId !== charge.id) return { kind: 'unchanged' };
    // Abandoned here (ended before any provider charge was recorded on it, see abandonCharge): the
    // provider's own cancel of that charge is no news; only a payment would be.
    if (!row.providerChargeId && ENDED.has(row.status) && charge.paid === 0 && !paidInFull(charge))
      return { kind: 'unchanged' };
    const ours = !PROVIDER_STATUSES.has(row.status);
    // An older status delivered late: nothing to learn from it.
    if (!ours && !advances(row.status, charge)) return { kind: 'unchanged' };
    await tx
      .update(coinbaseCharges)
      .set({
        providerChargeId: charge.id,
        code: charge.code,
        hostedUrl: charge.hostedUrl ?? row.hostedUrl,
        ...(ours ? {} : { status: charge.status, context: charge.context }),
        paid: Math.max(row.paid, charge.paid),
        expiresAt: charge.expiresAt,
        updatedAt: now,
      })
      .where(eq(coinbaseCharges.id, row.id));
    const paid = confirmedPaid(charge);

    if (row.type === 'topup') return ours ? { kind: 'unchanged' } : settleTopup(tx, row, charge, paid, now);
    if (!order) return { kind: 'unchanged' };
    if (charge.status === 'PENDING') {
      if (order.status !== 'created') return { kind: 'unchanged' };
      const holdUntil = new Date(now.getTime() + CONFIRMATION_HOLD_MS);
      if (order.expiresAt < holdUntil)
        await tx.update(orders).set({ expiresAt: holdUntil, updatedAt: now }).where(eq(orders.id, order.id));
      await addEvent(
        tx,
        order.id,
        'payment_seen',
        now,
        'Your payment was seen on the network; the edition is minted once the network confirms it.',
      );
      return { kind: 'confirming' };
    }
    if (paid) {
      if (order.status === 'created') {
        // A charge of another price, or "paid" with less than its price, does not pay this order.
        const mismatch =
          paymentMismatch(order, { amount: charge.amount, currency: charge.currency }) ??
          (charge.paid < order.amount
            ? `The payment provider reported the charge paid with ${formatUsd(charge.paid)} of ${formatUsd(order.amount)}.`
            : null);
        if (mismatch) {
          await holdForReview(tx, order, mismatch, now);
          return { kind: 'review' };
        }
        await authorizeOrder(tx, order.id, now, `Paid with crypto (charge ${charge.code}).`);
        return { kind: 'authorized' };
      }
      if (order.status === 'expired' || order.status === 'canceled') {
        await refundLateAsFusd(tx, order.id, SEND_FUSD_JOB, row.id, now);
        return { kind: 'refund' };
      }
      return { kind: 'unchanged' };
    }
    if (order.status !== 'created') return { kind: 'unchanged' };
    if (charge.status === 'EXPIRED' || charge.status === 'CANCELED') {
      await failUnpaidCrypto(
        tx,
        order,
        charge.status === 'EXPIRED' ? 'expired' : 'canceled',
        charge.status,
        now,
      );
      return { kind: 'failed' };
    }
    if (charge.status === 'UNRESOLVED' && charge.context === 'UNDERPAID') {
      await addEvent(
        tx,
        order.id,
        'underpaid',
        now,
        `Received ${charge.paid} of ${charge.amount} cents: pay the rest on the payment page, or cancel.`,
      );
    }
    return { kind: 'unchanged' };
  });
}

/** A new crypto top-up of the buyer (one open crypto charge at a time: CHARGE_PENDING). */
export async function createTopup(
  db: Database,
  input: { buyerId: string; idempotencyKey: string; amount: number; walletAddress: string; now: Date },
): Promise<{ charge: CoinbaseChargeRow; repeated: boolean }> {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(coinbaseCharges)
      .where(
        and(
          eq(coinbaseCharges.buyerId, input.buyerId),
          eq(coinbaseCharges.idempotencyKey, input.idempotencyKey),
        ),
      );
    if (existing) return { charge: existing, repeated: true };
    const pending = await pendingCryptoCharge(tx, input.buyerId, input.now);
    if (pending) throw chargePending(pending.id);
    const [charge] = await tx
      .insert(coinbaseCharges)
      .values({
        buyerId: input.buyerId,
        idempotencyKey: input.idempotencyKey,
        type: 'topup',
        amount: input.amount,
        walletAddress: input.walletAddress,
        expiresAt: new Date(input.now.getTime() + CRYPTO_CHARGE_TTL_MS),
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning();
    return { charge: charge!, repeated: false };
  });
}

/**
 * A charge nobody can pay: the provider refused it, was unreachable, or created it without a hosted
 * page (`refused`, its id). Ours ends CANCELED with no provider charge, code or page recorded, and
 * its order fails (the unit released). The provider's charge:created webhook for `refused` may have
 * been applied already; a charge tied to another provider charge is left alone.
 */
export async function abandonCharge(db: Database, chargeId: string, now: Date, refused?: string) {
  await db.transaction(async (tx) => {
    const { order, row } = await lockChargeWithOrder(tx, chargeId);
    if (!row || (row.providerChargeId && row.providerChargeId !== refused)) return;
    await tx
      .update(coinbaseCharges)
      .set({ status: 'CANCELED', providerChargeId: null, code: null, hostedUrl: null, updatedAt: now })
      .where(eq(coinbaseCharges.id, row.id));
    if (order?.status === 'created') await failUnpaidCrypto(tx, order, 'canceled', 'CANCELED', now);
  });
}

/** The buyer's charge; undefined for an unknown or someone else's id. */
export async function ownCryptoCharge(db: Executor, buyerId: string, id: string) {
  const [row] = await db
    .select()
    .from(coinbaseCharges)
    .where(and(eq(coinbaseCharges.id, id), eq(coinbaseCharges.buyerId, buyerId)));
  return row;
}

export async function listCryptoCharges(db: Executor, buyerId: string, statuses: string[] | undefined) {
  return db
    .select()
    .from(coinbaseCharges)
    .where(
      and(
        eq(coinbaseCharges.buyerId, buyerId),
        statuses?.length ? inArray(coinbaseCharges.status, statuses) : undefined,
      ),
    )
    .orderBy(desc(coinbaseCharges.createdAt))
    .limit(50);
}

const SUCCESS: ReadonlySet<string> = new Set([
  'PENDING',
  'COMPLETED',
  'RESOLVED',
  'MINTING',
  'MINTED',
  'SEND_FUSD_SUCCEEDED',
]);

export async function cryptoChargeJson(
  db: Executor,
  row: CoinbaseChargeRow,
  now = new Date(),
): Promise<CoinbaseChargeJson> {
  const order = row.orderId ? await findOrder(db, row.orderId) : undefined;
  const open = (row.status === 'NEW' || row.status === 'UNRESOLVED') && row.expiresAt > now;
  return {
    id: row.id,
    type: row.type,
    status: row.status as CoinbaseChargeStatus,
    context: row.context,
    hostedUrl: open ? row.hostedUrl : null,
    code: row.code,
    amount: row.amount,
    paid: row.paid,
    unresolved: open && row.hostedUrl !== null && (!order || order.status === 'created'),
    success: SUCCESS.has(row.status) || order?.status === 'minted',
    walletAddress: row.walletAddress,
    fusdTransactionId: row.fusdTransactionId,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    order: order ? await orderJson(db, order) : null,
  };
}

/**
 * Top-ups still open past their charge's time (and the 5 minutes late webhooks get): an underpaid
 * one stays UNRESOLVED at the provider, so it is ended here — EXPIRED, and what arrived goes back as
 * FUSD (sendFusd). Orders of direct purchases end by their own expiry (expireOrders).
 */
export async function expireTopups(db: Database, now: Date, limit = 200): Promise<number> {
  const cutoff = new Date(now.getTime() - 5 * 60_000);
  const due = await db
    .select({ id: coinbaseCharges.id })
    .from(coinbaseCharges)
    .where(
      and(
        eq(coinbaseCharges.type, 'topup'),
        inArray(coinbaseCharges.status, ['NEW', 'UNRESOLVED']),
        lt(coinbaseCharges.expiresAt, cutoff),
      ),
    )
    .limit(limit);
  let ended = 0;
  for (const { id } of due) {
    await db.transaction(async (tx) => {
      const row = await lockCharge(tx, id);
      if (!row || !['NEW', 'UNRESOLVED'].includes(row.status) || row.expiresAt >= cutoff) return;
      await tx
        .update(coinbaseCharges)
        .set({ status: 'EXPIRED', updatedAt: now })
        .where(eq(coinbaseCharges.id, id));
      if (row.paid > 0) await enqueueJob(tx, SEND_FUSD_JOB, id, now);
      ended++;
    });
  }
  return ended;
}
