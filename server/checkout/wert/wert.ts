import { randomUUID } from 'node:crypto';
import { and, eq, gt, inArray } from 'drizzle-orm';
import {
  openWertChargeStatuses,
  type reportedWertStatuses,
  type WertChargeStatus,
  type WertSignedData,
} from '#domain/schemas/wert';
import type { Executor } from '../../db';
import { orders, wertCharges } from '../../db/schema';
import type { OnrampOrder, OnrampProvider } from '../../payments/onramp-provider';
import type { RailCharge } from '../payment-rail';

/**
 * On-ramp charges (docs/checkout.md "Card-to-crypto on-ramp"): the buyer pays a new edition by card
 * in the provider's widget (Wert's smart-contract checkout). The provider buys the price in FUSD and
 * sends it to the platform's treasury with a description of the purchase, then reports with
 * webhooks. Those carry no signature: each is only a reason to ask the provider (its Data API) for
 * the order, and only what the provider confirms is applied — by `settleWert`, whichever of the
 * webhook, the buyer's sync or cancel comes first, and however often:
 *
 * - pending (the card payment started; a transaction once sent): payment_started, transfer_started;
 *   the unpaid order is held longer (WERT_PAYING_TTL_MS), since the money is on its way;
 * - success: paid. An unpaid order is authorized and its fulfil job queued in the same transaction
 *   (nothing to capture: the edition is minted, the charge follows MINTING → MINTED); an order that
 *   ended meanwhile (expired, canceled, declined: its unit may be sold to someone else) is not
 *   served, and the payment goes back as FUSD from the treasury (the wertRefund job, once);
 * - failed, canceled, failover (the contract call failed: tx_smart_contract_failed): the unpaid
 *   order fails (declined, canceled) and its unit is released; the failover's end (the coins sent to
 *   the buyer's wallet: failover_complete, or not: failover_cancelled) is added to its timeline.
 *
 * The browser may report the widget's progress first (paymentStarted, transferStarted: `reportWert`);
 * that moves the charge forward, never past what the provider confirmed, and pays for nothing.
 *
 * A provider order is applied only when it is the purchase we signed: its click_id is the charge,
 * and the smart-contract call and amount it reports are the ones signed (a click_id is not signed,
 * so a cheaper purchase's signed options opened with this charge's click_id do not pay for it).
 * Statuses only move forward; the mint and refund statuses are ours and are never overwritten.
 */

export type WertChargeRow = typeof wertCharges.$inferSelect;

/** An unpaid on-ramp order holds its unit this long (the widget's KYC and card steps take a while). */
export const WERT_ORDER_TTL_MS = 30 * 60_000;
/** …and at least this long after the provider confirmed that the card payment started. */
export const WERT_PAYING_TTL_MS = 60 * 60_000;
/** The job that sends a paid on-ramp charge's amount back as FUSD (keyed by the charge). */
export const WERT_REFUND_JOB = 'wertRefund';

/** How the purchase is described to the provider (config `wert`: see server/config.ts). */
export interface OnrampSigning {
  commodity: string;
  network: string;
  scAddress: string;
}

/* ---- What is signed ---- */

/**
 * `sc_input_data` for Flow: there is no ABI to encode a call with, so it is `0x` and the hex of
 * the purchase's UTF-8 JSON — `{ orderId, blueprintId | blueprintPackId, recipient }` — the order
 * the coins pay for, its item and the wallet the edition is minted to. The provider passes it
 * along with the coins sent to `sc_address` (the treasury); it is also how a provider order is
 * matched to the purchase it pays for (it names the order, and it is signed).
 */
export function purchaseInputData(p: {
  orderId: string;
  item: { kind: 'blueprint' | 'pack'; id: string };
  recipient: string;
}): string {
  const item = p.item.kind === 'pack' ? { blueprintPackId: p.item.id } : { blueprintId: p.item.id };
  const json = JSON.stringify({ orderId: p.orderId, ...item, recipient: p.recipient });
  return `0x${Buffer.from(json, 'utf8').toString('hex')}`;
}

/** The purchase named by an `sc_input_data`; null when it is not one. */
export function readInputData(hex: string): Record<string, string> | null {
  if (!/^0x(?:[0-9a-f]{2})+$/i.test(hex)) return null;
  try {
    const value = JSON.parse(Buffer.from(hex.slice(2), 'hex').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * What reserve() needs of the on-ramp: another open on-ramp charge of the buyer (CHARGE_PENDING),
 * and the charge itself, written with its order: the signed widget options name the order, so they
 * are signed inside the reservation's transaction.
 */
export function wertCharge(
  provider: OnrampProvider,
  signing: OnrampSigning,
  input: { buyerId: string; idempotencyKey: string; now: Date },
): RailCharge {
  return {
    async pending(tx) {
      const [row] = await tx
        .select({ id: wertCharges.id })
        .from(wertCharges)
        .innerJoin(orders, eq(orders.id, wertCharges.orderId))
        .where(
          and(
            eq(wertCharges.buyerId, input.buyerId),
            eq(orders.status, 'created'),
            gt(orders.expiresAt, input.now),
          ),
        )
        .limit(1);
      return row;
    },
    async attach(tx, order) {
      const signed = provider.sign({
        address: order.walletAddress,
        commodity: signing.commodity,
        // FUSD is one dollar: the price in dollars (cents / 100 has at most 2 decimals).
        commodity_amount: order.amount / 100,
        network: signing.network,
        sc_address: signing.scAddress,
        sc_input_data: purchaseInputData({
          orderId: order.id,
          item: { kind: order.itemKind, id: order.itemId },
          recipient: order.walletAddress,
        }),
      });
      await tx.insert(wertCharges).values({
        id: randomUUID(),
        buyerId: input.buyerId,
        idempotencyKey: input.idempotencyKey,
        orderId: order.id,
        amount: order.amount,
        walletAddress: order.walletAddress,
        signedData: { ...signed },
        createdAt: input.now,
        updatedAt: input.now,
      });
    },
  };
}

/* ---- Statuses ---- */

/**
 * How far along a status is: a status only moves to a higher rank. The browser's reports rank below
 * anything the provider confirmed (its word is the one that counts); the provider's ends rank above
 * everything open.
 */
const RANK: Record<string, number> = {
  created: 0,
  paymentStarted: 1,
  transferStarted: 2,
  payment_started: 3,
  transfer_started: 4,
  tx_smart_contract_failed: 5,
  order_complete: 6,
  order_failed: 6,
  order_canceled: 6,
  failover_complete: 6,
  failover_cancelled: 6,
};

/** Ours, after the payment: the provider never overwrites them. */
const AFTER_PAID = new Set([
  'MINTING',
  'MINTED',
  'MINT_SAVE_FAILED',
  'NFT_SYNC_FAILED',
  'SEND_FUSD_SUCCEEDED',
  'SEND_FUSD_FAILED',
]);
/** The contract call failed and the provider fails over: nothing reaches us. */
export const FAILOVER: ReadonlySet<string> = new Set([
  'tx_smart_contract_failed',
  'failover_complete',
  'failover_cancelled',
]);
/** Ended before anything was paid (here or at the provider): a later payment still counts. */
export const UNPAID_ENDS: ReadonlySet<string> = new Set([
  'canceled',
  'expired',
  'order_failed',
  'order_canceled',
  ...FAILOVER,
]);
/** Statuses that mean money moves toward us: news even after an unpaid end (a widget left open). */
const MONEY_MOVES: ReadonlySet<string> = new Set(['payment_started', 'transfer_started', 'order_complete']);
/** The provider confirmed the payment. */
export const PAID_STATUSES: ReadonlySet<string> = new Set([
  'order_complete',
  'MINTING',
  'MINTED',
  'MINT_SAVE_FAILED',
  'NFT_SYNC_FAILED',
]);
export const OPEN: ReadonlySet<string> = new Set(openWertChargeStatuses);
/**
 * The buyer may cancel while the provider confirmed nothing (the browser's reports alone do not
 * stop it: the provider is asked before a cancel, and a payment it has refuses it).
 */
export const CANCELLABLE: ReadonlySet<string> = new Set(['created', 'paymentStarted', 'transferStarted']);

/** Our status for what the provider reports of an order; null for a status we do not know. */
export function statusOf(order: Pick<OnrampOrder, 'status' | 'txId'>): WertChargeStatus | null {
  switch (order.status) {
    case 'pending':
      return order.txId ? 'transfer_started' : 'payment_started';
    case 'success':
      return 'order_complete';
    case 'failed':
      return 'order_failed';
    case 'canceled':
      return 'order_canceled';
    case 'failover':
      return 'tx_smart_contract_failed';
    case 'failover_complete':
      return 'failover_complete';
    case 'failover_cancelled':
      return 'failover_cancelled';
    default:
      return null;
  }
}

export function advances(from: string, to: WertChargeStatus): boolean {
  if (AFTER_PAID.has(from)) return false;
  if (UNPAID_ENDS.has(from)) {
    // After an unpaid end, money that moves is news (a payment in a widget left open)…
    if (MONEY_MOVES.has(to)) return true;
    // …and so is the failover of a contract call that failed: where the coins went.
    if (from === 'tx_smart_contract_failed') return to === 'failover_complete' || to === 'failover_cancelled';
    return (from === 'canceled' || from === 'expired') && FAILOVER.has(to);
  }
  return (RANK[to] ?? 0) > (RANK[from] ?? 0);
}

/**
 * The browser's report of the widget's progress: the charge moves to `status` when that is forward
 * from where it is and it is still open; otherwise nothing changes (a report pays for nothing).
 */
export async function reportWert(
  db: Executor,
  chargeId: string,
  status: (typeof reportedWertStatuses)[number],
  now: Date,
): Promise<void> {
  const below = openWertChargeStatuses.filter((s) => RANK[s]! < RANK[status]!);
  await db
    .update(wertCharges)
    .set({ status, updatedAt: now })
    .where(and(eq(wertCharges.id, chargeId), inArray(wertCharges.status, below)));
}

const same = (a: string | null, b: string) => a === null || a.toLowerCase() === b.toLowerCase();

/** Whether a provider order is the purchase this charge signed (see the module comment). */
export function confirmsPurchase(row: Pick<WertChargeRow, 'id' | 'signedData'>, order: OnrampOrder): boolean {
  const signed = row.signedData as unknown as WertSignedData;
  if (order.clickId !== row.id) return false;
  if (!same(order.scInputData, signed.sc_input_data)) return false;
  if (!same(order.scAddress, signed.sc_address) || !same(order.address, signed.address)) return false;
  return order.commodityAmount === null || Math.abs(order.commodityAmount - signed.commodity_amount) < 1e-9;
}
