import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, or, type SQL } from 'drizzle-orm';
import { formatUsd } from '#domain/money';
import {
  openWertChargeStatuses,
  type reportedWertStatuses,
  type WertChargeJson,
  type WertChargeListQuery,
  type WertChargeStatus,
  type WertItemInfo,
  type WertSignedData,
} from '#domain/schemas/wert';
import type { FlowClient } from '../../chain/client';
import { FusdSendError, sendFusd } from '../../chain/treasury';
import type { Log } from '../../clock';
import type { Database, Executor } from '../../db';
import { blueprintPacks, blueprints, orders, storefronts, webhookEvents, wertCharges } from '../../db/schema';
import { enqueueJob, type JobHandler, type JobRow } from '../../jobs';
import type { OnrampOrder, OnrampProvider } from '../../payments/onramp-provider';
import { failUnpaidWert } from '../failures';
import { orderJson } from '../order-json';
import { addEvent, FULFIL_JOB, findOrder, lockOrder, type OrderRow, type ReserveInput } from '../orders';

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
export function wertRail(
  provider: OnrampProvider,
  signing: OnrampSigning,
  input: { buyerId: string; idempotencyKey: string; now: Date },
): NonNullable<ReserveInput['rail']> {
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
const FAILOVER: ReadonlySet<string> = new Set([
  'tx_smart_contract_failed',
  'failover_complete',
  'failover_cancelled',
]);
/** Ended before anything was paid (here or at the provider): a later payment still counts. */
const UNPAID_ENDS: ReadonlySet<string> = new Set([
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
const OPEN: ReadonlySet<string> = new Set(openWertChargeStatuses);
/**
 * The buyer may cancel while the provider confirmed nothing (the browser's reports alone do not
 * stop it: the provider is asked before a cancel, and a payment it has refuses it).
 */
const CANCELLABLE: ReadonlySet<string> = new Set(['created', 'paymentStarted', 'transferStarted']);

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

function advances(from: string, to: WertChargeStatus): boolean {
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

/* ---- Settling ---- */

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
        await tx.update(orders).set({ status: 'authorized', updatedAt: now }).where(eq(orders.id, order.id));
        await addEvent(tx, order.id, 'authorized', now, `Paid by card through the on-ramp (order ${po.id}).`);
        await enqueueJob(tx, FULFIL_JOB, order.id, now);
        return { kind: 'authorized' };
      }
      if (moves && ['expired', 'canceled', 'declined'].includes(order.status)) {
        // Paid after the edition was let go: it is not served, and the payment goes back.
        await addEvent(
          tx,
          order.id,
          'paid_late',
          now,
          'Your payment arrived after the order ended: it is refunded as FUSD to your wallet.',
        );
        await enqueueJob(tx, WERT_REFUND_JOB, row.id, now);
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

/* ---- Webhooks ---- */

/**
 * What each order webhook claims, as the provider's order must confirm it. Other event types
 * (registration, login, verify_*, card_added, …) are answered and ignored.
 */
const CLAIMS: Record<string, (po: OnrampOrder) => boolean> = {
  payment_started: (po) => po.status === 'pending',
  transfer_started: (po) => po.status === 'pending' && po.txId !== null,
  order_complete: (po) => po.status === 'success',
  order_failed: (po) => po.status === 'failed',
  order_canceled: (po) => po.status === 'canceled',
  // The contract call failed: the provider's order is failing over, or has since.
  tx_smart_contract_failed: (po) => FAILOVER.has(statusOf(po) ?? ''),
  failover_complete: (po) => po.status === 'failover_complete',
  failover_cancelled: (po) => po.status === 'failover_cancelled',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type WertWebhookResult =
  | { kind: 'invalid' }
  | { kind: 'ignored'; reason: string }
  | { kind: 'unconfirmed' }
  | { kind: 'duplicate' }
  | { kind: 'applied'; outcome: WertSettleOutcome };

/**
 * One webhook delivery (unsigned JSON `{ type, click_id, order: { id, … } }`): a hint. The charge
 * is found by click_id; the provider is asked for the order (OnrampProviderUnavailableError when it
 * cannot be: the caller answers 5xx and the provider retries); the event is applied only when the
 * provider confirms what it claims, and each confirmed (order, type) once — its key goes into
 * `webhook_events` in the transaction of its effect, so a replay finds it and does nothing.
 */
export async function receiveWertWebhook(
  db: Database,
  provider: OnrampProvider,
  raw: string,
  now: Date,
): Promise<WertWebhookResult> {
  // biome-ignore lint/suspicious/noExplicitAny: an unsigned body read field by field
  let body: any;
  try {
    body = JSON.parse(raw);
  } catch {
    return { kind: 'invalid' };
  }
  if (!body || typeof body !== 'object' || Array.isArray(body) || typeof body.type !== 'string')
    return { kind: 'invalid' };
  const claim = CLAIMS[body.type];
  if (!claim) return { kind: 'ignored', reason: 'not an order event' };
  const clickId = typeof body.click_id === 'string' ? body.click_id : '';
  const orderRef = body.order?.id ?? body.order_id;
  const providerOrderId =
    typeof orderRef === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(orderRef) ? orderRef : null;
  if (!UUID.test(clickId)) return { kind: 'ignored', reason: 'no charge of ours' };
  const [row] = await db.select().from(wertCharges).where(eq(wertCharges.id, clickId));
  if (!row) return { kind: 'ignored', reason: 'no charge of ours' };
  const found = await provider.findOrders(providerOrderId ?? row.id);
  const po = found.find(
    (o) => o.clickId === row.id && (providerOrderId === null || o.id === providerOrderId) && claim(o),
  );
  if (!po || !confirmsPurchase(row, po)) return { kind: 'unconfirmed' };
  const result = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(webhookEvents)
      .values({ id: `wert:${po.id}:${body.type}`, provider: 'wert', type: body.type, receivedAt: now })
      .onConflictDoNothing({ target: webhookEvents.id })
      .returning({ id: webhookEvents.id });
    if (inserted.length === 0) return 'duplicate' as const;
    return settleWert(tx, row.id, po, now);
  });
  return result === 'duplicate' ? { kind: 'duplicate' } : { kind: 'applied', outcome: result };
}

/* ---- Reading ---- */

/** The charge by id, with whose it is (the routes answer 403 for another buyer's). */
export async function findWertCharge(db: Executor, id: string) {
  const [row] = await db.select().from(wertCharges).where(eq(wertCharges.id, id));
  return row;
}

export async function listWertCharges(db: Executor, buyerId: string, query: WertChargeListQuery) {
  const items: SQL[] = [];
  if (query.blueprintIds?.length)
    items.push(and(eq(orders.itemKind, 'blueprint'), inArray(orders.itemId, query.blueprintIds))!);
  if (query.blueprintPackIds?.length)
    items.push(and(eq(orders.itemKind, 'pack'), inArray(orders.itemId, query.blueprintPackIds))!);
  const rows = await db
    .select({ charge: wertCharges })
    .from(wertCharges)
    .innerJoin(orders, eq(orders.id, wertCharges.orderId))
    .where(
      and(
        eq(wertCharges.buyerId, buyerId),
        query.statuses?.length ? inArray(wertCharges.status, query.statuses) : undefined,
        items.length ? or(...items) : undefined,
      ),
    )
    .orderBy(desc(wertCharges.createdAt))
    .limit(50);
  return rows.map((r) => r.charge);
}

/** A link the widget can load: absolute http(s), or a path of ours made absolute. */
function absolute(url: string | null, publicUrl: string): string | undefined {
  if (!url) return undefined;
  if (/^https?:\/\//.test(url)) return url;
  return url.startsWith('/') ? `${publicUrl.replace(/\/+$/, '')}${url}` : undefined;
}

/** What the widget shows of the item (`extra.item_info`; the name at most 40 characters). */
export async function itemInfoOf(db: Executor, order: OrderRow, publicUrl: string): Promise<WertItemInfo> {
  const [row] =
    order.itemKind === 'pack'
      ? await db
          .select({ image: blueprintPacks.coverImageUrl, shop: storefronts.name })
          .from(blueprintPacks)
          .leftJoin(storefronts, eq(storefronts.id, blueprintPacks.storefrontId))
          .where(eq(blueprintPacks.id, order.itemId))
      : await db
          .select({ image: blueprints.previewImageUrl, shop: storefronts.name })
          .from(blueprints)
          .leftJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
          .where(eq(blueprints.id, order.itemId));
  const image = absolute(row?.image ?? null, publicUrl);
  return {
    name: order.title.slice(0, 40),
    ...(image ? { image_url: image } : {}),
    ...(row?.shop ? { author: row.shop } : {}),
    seller: 'Vitrine',
    category: order.itemKind === 'pack' ? 'Pack' : 'Collectible',
  };
}

export async function wertChargeJson(
  db: Executor,
  row: WertChargeRow,
  ctx: { partnerId: string; origin: string; publicUrl: string; now: Date },
): Promise<WertChargeJson> {
  const order = (await findOrder(db, row.orderId))!;
  const open = order.status === 'created' && order.expiresAt > ctx.now;
  return {
    id: row.id,
    clickId: row.id,
    status: row.status as WertChargeStatus,
    partnerId: ctx.partnerId,
    origin: ctx.origin,
    signedData: row.signedData as unknown as WertSignedData,
    itemInfo: await itemInfoOf(db, order, ctx.publicUrl),
    amount: row.amount,
    walletAddress: row.walletAddress,
    providerOrderId: row.providerOrderId,
    txId: row.txId,
    unresolved: open && OPEN.has(row.status),
    success:
      PAID_STATUSES.has(row.status) &&
      !['refunded', 'expired', 'canceled', 'declined'].includes(order.status),
    cancellable: open && CANCELLABLE.has(row.status),
    fusdTransactionId: row.fusdTransactionId,
    expiresAt: order.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    order: await orderJson(db, order),
  };
}

/* ---- Giving a payment back ---- */

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
