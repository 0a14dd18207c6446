import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { ErrorCode, errorMessage } from '#domain/errors';
import type {
  CardChargeJson,
  CardChargeStatus,
  CheckoutItem,
  CreateBillingInfoBody,
  OrderJson,
  OrderStatus,
} from '#domain/schemas/checkout';
import { openWertChargeStatuses } from '#domain/schemas/wert';
import { type Database, type Executor, prepareNamed, uniqueViolation } from '../db';
import {
  billingInfos,
  blueprintPacks,
  blueprints,
  cardCharges,
  coinbaseCharges,
  freeBlueprintClaims,
  jobs,
  orderEvents,
  orderItems,
  orders,
  storefronts,
  tokenCharges,
  tokenTransactions,
  users,
  wertCharges,
} from '../db/schema';
import { apiError } from '../http';
import { enqueueJob } from '../jobs';
import type { CardProvider, ProviderPayment } from '../payments/provider';
import { declineCode, schemeAccepted } from './billing/billing';

/**
 * Orders of new editions (docs/checkout.md "Order life"): reserve, settle, cancel, expire, the
 * timeline, and the JSON the routes answer. Every change of an order's status happens in a
 * transaction that holds the order's row lock and checks the status it moves from, so answers,
 * syncs, webhooks, cancels and the expiry sweep can race and each change happens once.
 */

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type CardChargeRow = typeof cardCharges.$inferSelect;
export type OrderMethod = OrderRow['method'];

/** An unpaid order holds its unit this long (the provider's 3-D Secure session lifetime). */
export const ORDER_TTL_MS = 15 * 60_000;
/** The durable job that fulfils an order (capture → mint → record) or undoes its payment. */
export const FULFIL_JOB = 'fulfil';
/** The job that sends FUSD from the treasury for a crypto charge (keyed by it): a top-up, or a refund. */
export const SEND_FUSD_JOB = 'sendFusd';

/** The billing details kept for billingInfo.save until the payment names its card source. */
export type SaveCardDetails = Omit<CreateBillingInfoBody, 'cardToken'>;

/* ---- Items ---- */

export interface CheckoutItemRecord {
  kind: CheckoutItem['kind'];
  id: string;
  title: string;
  price: number;
  storefrontId: string;
  quantityAvailable: number;
  /** On sale now (state, type, visibility, storefront, available time); free items too. */
  onSale: boolean;
  /** Listed for sale as it would be on sale, but its state is soldOut: no edition is left. */
  soldOut: boolean;
  /** Price 0 and not in a pack: claimed, never bought. */
  free: boolean;
  /**
   * Its editions were printed ahead of the sale: the FUSD balance pays only an active resale listing
   * of it, never a new edition.
   */
  printed: boolean;
  /** The blueprints whose next edition the order mints, in chain id order. */
  blueprints: { id: string; flowBlueprintId: number; title: string }[];
}

const live = (availableTime: Date | null, now: Date) => availableTime === null || availableTime <= now;

/** The item with what decides whether it can be bought or claimed; undefined when unknown. */
export async function findCheckoutItem(
  db: Executor,
  item: CheckoutItem,
  now: Date,
): Promise<CheckoutItemRecord | undefined> {
  if (item.kind === 'blueprint') {
    const [row] = await db
      .select({ b: blueprints, enabled: storefronts.enabled })
      .from(blueprints)
      .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
      .where(eq(blueprints.id, item.id));
    if (!row) return undefined;
    const { b } = row;
    // A blueprint of a pack is sold only with its pack.
    const listed =
      b.blueprintPackId === null &&
      (b.type === 'standalone' || b.type === 'sticker') &&
      b.visible &&
      row.enabled &&
      live(b.availableTime, now);
    const onSale = listed && (b.state === 'active' || b.state === 'printed');
    return {
      kind: 'blueprint',
      id: b.id,
      title: b.title,
      price: b.price,
      storefrontId: b.storefrontId,
      quantityAvailable: b.quantityAvailable,
      onSale,
      soldOut: listed && b.state === 'soldOut',
      free: b.price === 0 && b.blueprintPackId === null,
      printed: b.state === 'printed',
      blueprints: [{ id: b.id, flowBlueprintId: b.flowBlueprintId, title: b.title }],
    };
  }
  const [row] = await db
    .select({ p: blueprintPacks, enabled: storefronts.enabled })
    .from(blueprintPacks)
    .innerJoin(storefronts, eq(storefronts.id, blueprintPacks.storefrontId))
    .where(eq(blueprintPacks.id, item.id));
  if (!row) return undefined;
  const { p } = row;
  const members = await db
    .select({ id: blueprints.id, flowBlueprintId: blueprints.flowBlueprintId, title: blueprints.title })
    .from(blueprints)
    .where(eq(blueprints.blueprintPackId, p.id))
    .orderBy(asc(blueprints.flowBlueprintId));
  const listed = p.price > 0 && p.visible && row.enabled && live(p.availableTime, now) && members.length > 0;
  return {
    kind: 'pack',
    id: p.id,
    title: p.title,
    price: p.price,
    storefrontId: p.storefrontId,
    quantityAvailable: p.quantityAvailable,
    onSale: listed && (p.state === 'available' || p.state === 'printed'),
    soldOut: listed && p.state === 'soldOut',
    free: false,
    printed: p.state === 'printed',
    blueprints: members,
  };
}

/** Can be bought by card: on sale and not free. */
export const purchasable = (item: CheckoutItemRecord) => item.onSale && !item.free;
/**
 * Refuses an item that cannot be bought now: 409 SOLD_OUT when its state says no edition is left,
 * else 400 NOT_PURCHASABLE when it is not on sale (or free: claimed, not bought).
 */
export function assertPurchasable(item: CheckoutItemRecord): void {
  if (item.soldOut && !item.free) throw apiError(409, ErrorCode.SOLD_OUT);
  if (!purchasable(item)) throw apiError(400, ErrorCode.NOT_PURCHASABLE);
}
/** Can be claimed for free: on sale and free. */
export const claimable = (item: CheckoutItemRecord) => item.onSale && item.free;

/* ---- Events ---- */

/** Timeline order for events written at the same instant. */
const EVENT_RANK = [
  'created',
  'authorized',
  'captured',
  'minting',
  'mint_failed',
  'minted',
  'declined',
  'canceled',
  'expired',
  'voided',
  'refunded',
];

/** Writes a milestone once per order (a replay changes nothing). */
export async function addEvent(
  tx: Executor,
  orderId: string,
  type: string,
  at: Date,
  detail?: string | null,
) {
  await tx
    .insert(orderEvents)
    .values({ orderId, type, detail: detail ?? null, createdAt: at })
    .onConflictDoNothing({ target: [orderEvents.orderId, orderEvents.type] });
}

/* ---- Reading ---- */

export async function lockOrder(tx: Executor, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row;
}

export async function findOrder(db: Executor, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row;
}

export async function chargeOfOrder(db: Executor, orderId: string): Promise<CardChargeRow | undefined> {
  const [row] = await db.select().from(cardCharges).where(eq(cardCharges.orderId, orderId));
  return row;
}

/* ---- Reserve ---- */

export interface ReserveInput {
  buyerId: string;
  idempotencyKey: string;
  method: OrderMethod;
  item: CheckoutItemRecord;
  walletAddress: string;
  now: Date;
  /**
   * A card order: the saved card it pays with, or the new card's details to save; `wallet` when the
   * card token is of an Apple Pay or Google Pay payment (named in the `created` event).
   */
  card?: {
    billingInfoId: string | null;
    saveCard: SaveCardDetails | null;
    wallet?: 'applepay' | 'googlepay' | null;
  };
  /** How long the unpaid order holds its unit (default: the method's). */
  ttlMs?: number;
  /**
   * A rail that keeps its own charge (the on-ramp, server/checkout/wert.ts): `pending` finds another
   * open charge of the buyer on it (CHARGE_PENDING), `attach` writes the order's charge in the
   * reservation's transaction.
   */
  rail?: {
    pending(tx: Executor): Promise<{ id: string } | undefined>;
    attach(tx: Executor, order: OrderRow): Promise<void>;
  };
}

/** An unpaid crypto order is held as long as its hosted charge (60 minutes) and a little more for late webhooks. */
export const CRYPTO_CHARGE_TTL_MS = 60 * 60_000;
export const CRYPTO_ORDER_TTL_MS = CRYPTO_CHARGE_TTL_MS + 5 * 60_000;

/** Another open crypto charge of the buyer (one at a time: CHARGE_PENDING). */
export async function pendingCryptoCharge(tx: Executor, buyerId: string, now: Date) {
  const [row] = await tx
    .select({ id: coinbaseCharges.id })
    .from(coinbaseCharges)
    .where(
      and(
        eq(coinbaseCharges.buyerId, buyerId),
        inArray(coinbaseCharges.status, ['NEW', 'UNRESOLVED']),
        gt(coinbaseCharges.expiresAt, now),
      ),
    )
    .limit(1);
  return row;
}

export const chargePending = (chargeId: string) => {
  const err = apiError(409, ErrorCode.CHARGE_PENDING);
  Object.assign(err.body, { chargeId });
  return err;
};

export interface Reserved {
  order: OrderRow;
  /** The buyer's earlier order with this idempotency key (nothing was reserved again). */
  repeated: boolean;
}

/** Another unpaid card order of the buyer (one at a time: CHARGE_PENDING). */
async function pendingCharge(tx: Executor, buyerId: string, now: Date) {
  const [row] = await tx
    .select({ id: cardCharges.id })
    .from(cardCharges)
    .innerJoin(orders, eq(orders.id, cardCharges.orderId))
    .where(and(eq(orders.buyerId, buyerId), eq(orders.status, 'created'), gt(orders.expiresAt, now)))
    .limit(1);
  return row;
}

/** Takes one unit of the item's quantity_available; false when none is left. */
async function takeUnit(tx: Executor, item: { kind: CheckoutItem['kind']; id: string }): Promise<boolean> {
  const table = item.kind === 'pack' ? blueprintPacks : blueprints;
  const taken = await tx
    .update(table)
    .set({ quantityAvailable: sql`${table.quantityAvailable} - 1` })
    .where(and(eq(table.id, item.id), gt(table.quantityAvailable, 0)))
    .returning({ id: table.id });
  return taken.length > 0;
}

/** Gives the order's unit back, once (the order stops holding it). */
export async function release(tx: Executor, order: Pick<OrderRow, 'id' | 'itemKind' | 'itemId'>, now: Date) {
  const released = await tx
    .update(orders)
    .set({ reserved: false, updatedAt: now })
    .where(and(eq(orders.id, order.id), eq(orders.reserved, true)))
    .returning({ id: orders.id });
  if (released.length === 0) return;
  const table = order.itemKind === 'pack' ? blueprintPacks : blueprints;
  await tx
    .update(table)
    .set({ quantityAvailable: sql`${table.quantityAvailable} + 1` })
    .where(eq(table.id, order.itemId));
}

/**
 * One transaction: the order (unique per buyer and idempotency key: a repeat answers the first
 * order), one unit of the item (SOLD_OUT when none is left, and nothing is written), its editions,
 * its card charge (or its crypto charge, or the charge its `rail` writes: the on-ramp's) and the
 * `created` event. The buyer's row is locked, so one buyer's concurrent purchases are checked one at
 * a time (CHARGE_PENDING: another payment on the same rail is unresolved).
 * A free claim is authorized at once, with its claim row and its `fulfil` job.
 */
export async function reserve(db: Database, input: ReserveInput): Promise<Reserved> {
  const { item, now } = input;
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, input.buyerId)).for('update');
    const [existing] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.buyerId, input.buyerId), eq(orders.idempotencyKey, input.idempotencyKey)));
    if (existing) return { order: existing, repeated: true };
    if (input.rail) {
      const pending = await input.rail.pending(tx);
      if (pending) throw chargePending(pending.id);
    } else if (input.method === 'creditCard') {
      const pending = await pendingCharge(tx, input.buyerId, now);
      if (pending) throw chargePending(pending.id);
    } else if (input.method === 'coinbase') {
      const pending = await pendingCryptoCharge(tx, input.buyerId, now);
      if (pending) throw chargePending(pending.id);
    } else if (input.method === 'fusd') {
      // Paid from the wallet at once; an unpaid one simply expires. Nothing else to check.
    } else {
      const [claimed] = await tx
        .select({ id: freeBlueprintClaims.id })
        .from(freeBlueprintClaims)
        .where(
          and(eq(freeBlueprintClaims.userId, input.buyerId), eq(freeBlueprintClaims.blueprintId, item.id)),
        );
      if (claimed)
        throw apiError(400, ErrorCode.CLAIM_BLUEPRINT, undefined, 'You have already claimed this item.');
    }
    const free = input.method === 'freeBlueprintClaim';
    const [order] = await tx
      .insert(orders)
      .values({
        buyerId: input.buyerId,
        idempotencyKey: input.idempotencyKey,
        method: input.method,
        itemKind: item.kind,
        itemId: item.id,
        title: item.title,
        storefrontId: item.storefrontId,
        amount: free ? 0 : item.price,
        walletAddress: input.walletAddress,
        status: free ? 'authorized' : 'created',
        expiresAt: new Date(
          now.getTime() + (input.ttlMs ?? (input.method === 'coinbase' ? CRYPTO_ORDER_TTL_MS : ORDER_TTL_MS)),
        ),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!(await takeUnit(tx, item))) {
      throw free
        ? apiError(400, ErrorCode.CLAIM_BLUEPRINT, undefined, 'This item is sold out.')
        : apiError(409, ErrorCode.SOLD_OUT);
    }
    await tx.insert(orderItems).values(
      item.blueprints.map((b) => ({
        orderId: order!.id,
        blueprintId: b.id,
        flowBlueprintId: b.flowBlueprintId,
        createdAt: now,
      })),
    );
    const wallet = input.card?.wallet;
    await addEvent(
      tx,
      order!.id,
      'created',
      now,
      wallet ? `Paid with ${wallet === 'applepay' ? 'Apple Pay' : 'Google Pay'}.` : undefined,
    );
    if (free) {
      await tx.insert(freeBlueprintClaims).values({
        userId: input.buyerId,
        blueprintId: item.id,
        orderId: order!.id,
        createdAt: now,
      });
      await addEvent(tx, order!.id, 'authorized', now, 'Free claim: nothing to pay.');
      await enqueueJob(tx, FULFIL_JOB, order!.id, now);
    } else if (input.rail) {
      await input.rail.attach(tx, order!);
    } else if (input.method === 'coinbase') {
      await tx.insert(coinbaseCharges).values({
        buyerId: input.buyerId,
        idempotencyKey: input.idempotencyKey,
        type: 'directPurchase',
        orderId: order!.id,
        amount: item.price,
        walletAddress: input.walletAddress,
        expiresAt: new Date(now.getTime() + CRYPTO_CHARGE_TTL_MS),
        createdAt: now,
        updatedAt: now,
      });
    } else {
      await tx.insert(cardCharges).values({
        orderId: order!.id,
        buyerId: input.buyerId,
        billingInfoId: input.card?.billingInfoId ?? null,
        saveCard: input.card?.saveCard ?? null,
        createdAt: now,
        updatedAt: now,
      });
    }
    return { order: order!, repeated: false };
  });
}

/* ---- Failing, settling, canceling, expiring ---- */

export interface Failure {
  code: string;
  message: string;
}

export const failureOf = (code: string, message?: string): Failure => ({
  code,
  message: message ?? errorMessage({ code }),
});

/**
 * Requeues the order's `fulfil` job: it undoes a payment the provider may hold for a failed order
 * (void when authorized; it waits while the payment is still pending).
 */
export async function requestCompensation(tx: Executor, orderId: string, now: Date) {
  await enqueueJob(tx, FULFIL_JOB, orderId, now);
  // A job that already finished runs again: the provider authorized after all.
  await tx
    .update(jobs)
    .set({ status: 'queued', runAt: now, leaseUntil: null, lockedBy: null, updatedAt: now })
    .where(and(eq(jobs.kind, FULFIL_JOB), eq(jobs.key, orderId), inArray(jobs.status, ['done', 'failed'])));
}

/** Moves an unpaid order (status created, row locked) to a failed status and releases its unit. */
async function failUnpaid(
  tx: Executor,
  order: OrderRow,
  status: Extract<OrderStatus, 'declined' | 'canceled' | 'expired'>,
  failure: Failure | null,
  chargeStatus: CardChargeStatus,
  now: Date,
) {
  await tx
    .update(orders)
    .set({
      status,
      failureCode: failure?.code ?? null,
      failureMessage: failure?.message ?? null,
      updatedAt: now,
    })
    .where(eq(orders.id, order.id));
  await release(tx, order, now);
  await tx
    .update(cardCharges)
    // Billing details kept for saving the card are not needed any more.
    .set({ status: chargeStatus, redirectUrl: null, saveCard: null, updatedAt: now })
    .where(eq(cardCharges.orderId, order.id));
  await addEvent(tx, order.id, status, now, failure?.message ?? null);
}

const CRYPTO_UNPAID: Record<'expired' | 'canceled', Failure> = {
  expired: { code: 'EXPIRED', message: 'The crypto payment was not completed in time.' },
  canceled: { code: 'CANCELED', message: 'Your crypto purchase was canceled.' },
};

/**
 * Fails an unpaid crypto order (row locked): released, its charge EXPIRED or CANCELED unless the
 * buyer paid part of it (UNRESOLVED), in which case what arrived goes back as FUSD (sendFusd).
 */
export async function failUnpaidCrypto(
  tx: Executor,
  order: OrderRow,
  status: 'expired' | 'canceled',
  chargeStatus: 'EXPIRED' | 'CANCELED',
  now: Date,
) {
  const failure = CRYPTO_UNPAID[status];
  await tx
    .update(orders)
    .set({ status, failureCode: failure.code, failureMessage: failure.message, updatedAt: now })
    .where(eq(orders.id, order.id));
  await release(tx, order, now);
  const [charge] = await tx
    .select()
    .from(coinbaseCharges)
    .where(eq(coinbaseCharges.orderId, order.id))
    .for('update');
  if (charge && charge.paid > 0) {
    await enqueueJob(tx, SEND_FUSD_JOB, charge.id, now);
    await addEvent(
      tx,
      order.id,
      status,
      now,
      `${failure.message} What you paid is refunded as FUSD to your wallet.`,
    );
    return;
  }
  if (charge && ['NEW', 'UNRESOLVED'].includes(charge.status))
    await tx
      .update(coinbaseCharges)
      .set({ status: chargeStatus, updatedAt: now })
      .where(eq(coinbaseCharges.id, charge.id));
  await addEvent(tx, order.id, status, now, failure.message);
}

/** Fails an unpaid balance order (row locked): expired or canceled, its unit released. */
export async function failUnpaidFusd(
  tx: Executor,
  order: OrderRow,
  status: 'expired' | 'canceled',
  now: Date,
) {
  const message =
    status === 'expired'
      ? 'The payment was not made in time. Nothing was taken from your balance.'
      : 'Your purchase was canceled. Nothing was taken from your balance.';
  await tx
    .update(orders)
    .set({
      status,
      failureCode: status === 'expired' ? ErrorCode.EXPIRED : ErrorCode.CANCELED,
      failureMessage: message,
      updatedAt: now,
    })
    .where(eq(orders.id, order.id));
  await release(tx, order, now);
  await addEvent(tx, order.id, status, now, message);
}

/**
 * Fails an unpaid on-ramp order (row locked): its status and failure, its unit released, and its
 * charge, when given a status and still open (openWertChargeStatuses), ends with it.
 */
export async function failUnpaidWert(
  tx: Executor,
  order: OrderRow,
  status: Extract<OrderStatus, 'declined' | 'canceled' | 'expired'>,
  failure: Failure,
  chargeStatus: 'canceled' | 'expired' | null,
  now: Date,
) {
  await tx
    .update(orders)
    .set({ status, failureCode: failure.code, failureMessage: failure.message, updatedAt: now })
    .where(eq(orders.id, order.id));
  await release(tx, order, now);
  if (chargeStatus)
    await tx
      .update(wertCharges)
      .set({ status: chargeStatus, updatedAt: now })
      .where(
        and(eq(wertCharges.orderId, order.id), inArray(wertCharges.status, [...openWertChargeStatuses])),
      );
  await addEvent(tx, order.id, status, now, failure.message);
}

/** The job that gives a token charge's received NFM back (server/checkout/token.ts). */
export const REFUND_TOKEN_JOB = 'refundToken';

/** Fails an unpaid NFM order (row locked): its status, its unit released, its open charge ended. */
export async function failUnpaidToken(
  tx: Executor,
  order: OrderRow,
  status: 'expired' | 'canceled',
  now: Date,
) {
  const message =
    status === 'expired'
      ? 'The NFM payment was not completed in time. Any NFM received is sent back to your wallet.'
      : 'Your purchase was canceled. Nothing was taken from your wallet.';
  await tx
    .update(orders)
    .set({
      status,
      failureCode: status === 'expired' ? ErrorCode.EXPIRED : ErrorCode.CANCELED,
      failureMessage: message,
      updatedAt: now,
    })
    .where(eq(orders.id, order.id));
  await release(tx, order, now);
  const [charge] = await tx
    .update(tokenCharges)
    .set({ status, updatedAt: now })
    .where(and(eq(tokenCharges.orderId, order.id), inArray(tokenCharges.status, ['created', 'signed'])))
    .returning({ id: tokenCharges.id });
  await addEvent(tx, order.id, status, now, message);
  // NFM that arrived short of the price goes back.
  if (charge) {
    const [transfer] = await tx
      .select({ hash: tokenTransactions.hash })
      .from(tokenTransactions)
      .where(eq(tokenTransactions.chargeId, charge.id))
      .limit(1);
    if (transfer) await enqueueJob(tx, REFUND_TOKEN_JOB, charge.id, now);
  }
}

/** Fails an unpaid order for a reason found before or without the provider's answer. */
export async function failOrder(
  db: Database,
  orderId: string,
  status: Extract<OrderStatus, 'declined' | 'canceled'>,
  failure: Failure,
  now: Date,
  options: { compensate?: boolean } = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (order?.status !== 'created') return;
    await failUnpaid(tx, order, status, failure, status === 'declined' ? 'Declined' : 'Canceled', now);
    if (options.compensate) await requestCompensation(tx, orderId, now);
  });
}

export type SettleOutcome =
  /** The payment waits for the buyer (3-D Secure). */
  | { kind: 'pending' }
  /** Approved: the order is authorized and its fulfil job queued. */
  | { kind: 'authorized' }
  /** The provider declined, or the payment expired or was canceled: the order failed. */
  | { kind: 'failed'; failure: Failure }
  /** Approved, but refused by the checkout (card brand, duplicate saved card): to be voided. */
  | { kind: 'refused'; failure: Failure }
  /** Approved for an order that is over (canceled, expired): to be voided. */
  | { kind: 'compensate' }
  /** Nothing changed (already settled, or not this order's payment). */
  | { kind: 'unchanged' };

const APPROVED_STATUSES = ['Authorized', 'Captured', 'Paid', 'Partially Captured'];

function providerFailure(payment: ProviderPayment): Failure {
  if (payment.status === 'Expired')
    return failureOf(
      ErrorCode.CARD_DECLINED,
      'The card check was not completed in time. Your card was not charged.',
    );
  if (payment.status === 'Canceled') return failureOf(ErrorCode.CARD_DECLINED);
  return failureOf(declineCode(payment.responseCode));
}

/** Keeps the new card the buyer asked to save; a refusal when the checkout does not take it. */
async function checkCard(
  tx: Executor,
  order: OrderRow,
  charge: CardChargeRow,
  payment: ProviderPayment,
  now: Date,
): Promise<Failure | null> {
  const source = payment.source;
  if (source?.scheme && !schemeAccepted(source.scheme)) return failureOf(ErrorCode.CARD_TYPE);
  const details = charge.saveCard as SaveCardDetails | null;
  if (!details || charge.billingInfoId || !source?.id || !source.last4) return null;
  const [same] = await tx
    .select({ id: billingInfos.id })
    .from(billingInfos)
    .where(and(eq(billingInfos.userId, order.buyerId), eq(billingInfos.lastFourDigits, source.last4)));
  if (same) return failureOf(ErrorCode.CARD_DUPLICATE);
  try {
    // A savepoint: a concurrent save of the same last four loses here without ending the settle.
    const row = await tx.transaction(async (sp) => {
      const [saved] = await sp
        .insert(billingInfos)
        .values({
          userId: order.buyerId,
          sourceId: source.id,
          lastFourDigits: source.last4!,
          scheme: source.scheme?.toUpperCase() ?? null,
          expiryMonth: source.expiryMonth,
          expiryYear: source.expiryYear,
          firstName: details.firstName,
          lastName: details.lastName || null,
          addressLine1: details.addressLine1,
          addressLine2: details.addressLine2 || null,
          city: details.city,
          state: details.state,
          country: details.country,
          zipCode: details.zipCode,
          phoneCountryCode: details.phoneNumber.countryCode,
          phoneNumber: details.phoneNumber.number,
          status: 'verified',
          createdAt: now,
        })
        .returning({ id: billingInfos.id });
      return saved!;
    });
    await tx
      .update(cardCharges)
      .set({ billingInfoId: row.id, saveCard: null })
      .where(eq(cardCharges.id, charge.id));
    return null;
  } catch (err) {
    if (uniqueViolation(err) === 'billing_infos_last4_unique') return failureOf(ErrorCode.CARD_DUPLICATE);
    throw err;
  }
}

/**
 * Applies the provider's view of the order's payment (its answer, a sync or a webhook), idempotent
 * by the order's status: approved → authorized with a `fulfil` job in the same transaction;
 * declined / expired / canceled → that status, unit released, failure stored; approved for an order
 * that failed meanwhile (canceled, expired) → the fulfil job voids it.
 */
export async function settle(
  db: Executor,
  orderId: string,
  payment: ProviderPayment,
  now: Date,
): Promise<SettleOutcome> {
  return db.transaction(async (tx): Promise<SettleOutcome> => {
    const order = await lockOrder(tx, orderId);
    if (order?.method !== 'creditCard') return { kind: 'unchanged' };
    if (payment.reference && payment.reference !== order.id) return { kind: 'unchanged' };
    const [charge] = await tx
      .select()
      .from(cardCharges)
      .where(eq(cardCharges.orderId, orderId))
      .for('update');
    if (!charge) return { kind: 'unchanged' };
    if (charge.paymentId && charge.paymentId !== payment.id) return { kind: 'unchanged' };
    const known = {
      paymentId: payment.id,
      last4: payment.source?.last4 ?? charge.last4,
      scheme: payment.source?.scheme?.toUpperCase() ?? charge.scheme,
      responseCode: payment.responseCode ?? charge.responseCode,
      responseSummary: payment.responseSummary ?? charge.responseSummary,
      updatedAt: now,
    };
    const open = order.status === 'created';

    if (payment.status === 'Pending') {
      if (open) {
        await tx
          .update(cardCharges)
          .set({ ...known, status: 'Pending', redirectUrl: payment.redirectUrl ?? charge.redirectUrl })
          .where(eq(cardCharges.id, charge.id));
        return { kind: 'pending' };
      }
      if (!charge.paymentId) await tx.update(cardCharges).set(known).where(eq(cardCharges.id, charge.id));
      return { kind: 'unchanged' };
    }

    if (payment.approved && APPROVED_STATUSES.includes(payment.status)) {
      if (open) {
        await tx.update(cardCharges).set(known).where(eq(cardCharges.id, charge.id));
        const refusal = await checkCard(tx, order, charge, payment, now);
        if (refusal) {
          await failUnpaid(tx, order, 'declined', refusal, 'Authorized', now);
          await requestCompensation(tx, order.id, now);
          return { kind: 'refused', failure: refusal };
        }
        await tx.update(orders).set({ status: 'authorized', updatedAt: now }).where(eq(orders.id, order.id));
        await tx
          .update(cardCharges)
          .set({ status: 'Authorized', redirectUrl: null })
          .where(eq(cardCharges.id, charge.id));
        await addEvent(tx, order.id, 'authorized', now, known.last4 ? `Card ending ${known.last4}` : null);
        await enqueueJob(tx, FULFIL_JOB, order.id, now);
        return { kind: 'authorized' };
      }
      if (['canceled', 'expired', 'declined'].includes(order.status)) {
        // The provider authorized an order that is over: the job gives the money back.
        await tx
          .update(cardCharges)
          .set({ ...known, status: charge.status === 'Voided' ? 'Voided' : 'Authorized' })
          .where(eq(cardCharges.id, charge.id));
        if (charge.status !== 'Voided') {
          await requestCompensation(tx, order.id, now);
          return { kind: 'compensate' };
        }
      }
      return { kind: 'unchanged' };
    }

    if (['Declined', 'Expired', 'Canceled'].includes(payment.status)) {
      if (!open) {
        if (!charge.paymentId) await tx.update(cardCharges).set(known).where(eq(cardCharges.id, charge.id));
        return { kind: 'unchanged' };
      }
      await tx.update(cardCharges).set(known).where(eq(cardCharges.id, charge.id));
      const failure = providerFailure(payment);
      const status =
        payment.status === 'Declined' ? 'declined' : payment.status === 'Expired' ? 'expired' : 'canceled';
      await failUnpaid(tx, order, status, failure, payment.status as CardChargeStatus, now);
      return { kind: 'failed', failure };
    }
    // Voided, Refunded, Card Verified…: the checkout's own actions or not a purchase; nothing to do.
    if (!charge.paymentId) await tx.update(cardCharges).set(known).where(eq(cardCharges.id, charge.id));
    return { kind: 'unchanged' };
  });
}

/**
 * The buyer gives up an unpaid order: canceled, unit released. A payment the provider holds for it
 * is undone by the fulfil job. False when the order is no longer unpaid.
 */
export async function cancelOrder(db: Database, orderId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (order?.status !== 'created') return false;
    const charge = await chargeOfOrder(tx, orderId);
    await failUnpaid(tx, order, 'canceled', null, 'Canceled', now);
    if (charge?.paymentId) await requestCompensation(tx, orderId, now);
    return true;
  });
}

/**
 * The expiry sweep: unpaid orders past their time are expired and give their unit back (a payment
 * the provider approves later is voided by the fulfil job). Answers how many expired.
 */
export async function expireOrders(db: Database, now: Date, limit = 200): Promise<number> {
  const due = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.reserved, true), eq(orders.status, 'created'), lt(orders.expiresAt, now)))
    .orderBy(asc(orders.expiresAt))
    .limit(limit);
  let expired = 0;
  for (const { id } of due) {
    await db.transaction(async (tx) => {
      const order = await lockOrder(tx, id);
      if (order?.status !== 'created' || order.expiresAt >= now) return;
      if (order.method === 'coinbase') {
        await failUnpaidCrypto(tx, order, 'expired', 'EXPIRED', now);
        expired++;
        return;
      }
      if (order.method === 'wert') {
        // A payment the provider completes after this goes back as FUSD (server/checkout/wert.ts).
        await failUnpaidWert(
          tx,
          order,
          'expired',
          { code: 'EXPIRED', message: 'The card payment was not completed in time. You were not charged.' },
          'expired',
          now,
        );
        expired++;
        return;
      }
      if (order.method === 'fusd') {
        await failUnpaidFusd(tx, order, 'expired', now);
        expired++;
        return;
      }
      if (order.method === 'token') {
        await failUnpaidToken(tx, order, 'expired', now);
        expired++;
        return;
      }
      const charge = await chargeOfOrder(tx, id);
      await failUnpaid(
        tx,
        order,
        'expired',
        failureOf(
          ErrorCode.CARD_DECLINED,
          'The payment was not completed in time. Your card was not charged.',
        ),
        'Expired',
        now,
      );
      if (charge?.paymentId) await requestCompensation(tx, id, now);
      expired++;
    });
  }
  return expired;
}

/**
 * Undoes what the provider holds for an order that failed before it was paid (declined by the
 * checkout, canceled, expired): an authorization is voided (key void-{orderId}); a canceled or
 * expired order is then `voided`. Throws while the payment is still pending, so the job waits.
 * Answers whether anything was undone.
 */
export async function voidFailedOrder(
  db: Database,
  provider: CardProvider,
  orderId: string,
  now: () => Date,
): Promise<boolean> {
  const order = await findOrder(db, orderId);
  if (!order || !['declined', 'canceled', 'expired'].includes(order.status)) return false;
  const charge = await chargeOfOrder(db, orderId);
  if (!charge?.paymentId || ['Voided', 'Refunded'].includes(charge.status)) return false;
  const payment = await provider.getPayment(charge.paymentId);
  if (payment.status === 'Pending')
    throw new Error(`payment ${payment.id} of order ${orderId} is still pending`);
  let undone: 'Voided' | 'Refunded' | null = null;
  if (payment.status === 'Authorized') {
    await provider.void(payment.id, `void-${orderId}`);
    undone = 'Voided';
  } else if (payment.status === 'Captured') {
    await provider.refund(payment.id, `refund-${orderId}`);
    undone = 'Refunded';
  } else if (payment.status === 'Voided' || payment.status === 'Refunded') {
    undone = payment.status;
  }
  if (!undone) return false;
  const status = undone;
  await db.transaction(async (tx) => {
    const locked = await lockOrder(tx, orderId);
    if (!locked) return;
    const at = now();
    await tx.update(cardCharges).set({ status, updatedAt: at }).where(eq(cardCharges.orderId, orderId));
    if (locked.status === 'canceled' || locked.status === 'expired') {
      await tx.update(orders).set({ status: 'voided', updatedAt: at }).where(eq(orders.id, orderId));
    }
    await addEvent(
      tx,
      orderId,
      status === 'Voided' ? 'voided' : 'refunded',
      at,
      'The card payment was undone; you were not charged.',
    );
  });
  return true;
}

/* ---- JSON ---- */

/** An edition of an order as its JSON shows it. */
interface EditionRow {
  blueprintId: string;
  flowBlueprintId: number;
  title: string;
  serialNumber: number | null;
  nftId: string | null;
}

/** A timeline event as its JSON shows it. */
interface EventRow {
  type: string;
  detail: string | null;
  createdAt: Date;
}

const eventRank = (type: string) => {
  const i = EVENT_RANK.indexOf(type);
  return i < 0 ? EVENT_RANK.length : i;
};

/** The order's JSON from its row, its editions (by chain id) and its events (by time, then EVENT_RANK). */
function orderJsonOf(order: OrderRow, editions: EditionRow[], events: EventRow[]): OrderJson {
  const timeline = [...events].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || eventRank(a.type) - eventRank(b.type),
  );
  return {
    id: order.id,
    method: order.method,
    item: { kind: order.itemKind, id: order.itemId, title: order.title },
    amount: order.amount,
    currency: order.currency,
    status: order.status,
    walletAddress: order.walletAddress,
    editions: editions.map((e) => ({
      blueprintId: e.blueprintId,
      flowBlueprintId: e.flowBlueprintId,
      title: e.title,
      serialNumber: e.serialNumber,
      nftId: e.nftId,
    })),
    failure:
      order.failureCode !== null
        ? {
            code: order.failureCode,
            message: order.failureMessage ?? errorMessage({ code: order.failureCode }),
          }
        : null,
    events: timeline.map((e) => ({ type: e.type, detail: e.detail, at: e.createdAt.toISOString() })),
    createdAt: order.createdAt.toISOString(),
  };
}

export async function orderJson(db: Executor, order: OrderRow): Promise<OrderJson> {
  const editions = await db
    .select({
      blueprintId: orderItems.blueprintId,
      flowBlueprintId: orderItems.flowBlueprintId,
      title: blueprints.title,
      serialNumber: orderItems.serialNumber,
      nftId: orderItems.nftId,
    })
    .from(orderItems)
    .innerJoin(blueprints, eq(blueprints.id, orderItems.blueprintId))
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.flowBlueprintId));
  const events = await db
    .select({ type: orderEvents.type, detail: orderEvents.detail, createdAt: orderEvents.createdAt })
    .from(orderEvents)
    .where(eq(orderEvents.orderId, order.id))
    .orderBy(asc(orderEvents.createdAt));
  return orderJsonOf(order, editions, events);
}

const SUCCESS_STATUSES: OrderStatus[] = ['authorized', 'captured', 'minting', 'minted'];

function chargeJsonOf(charge: CardChargeRow, order: OrderRow, json: OrderJson): CardChargeJson {
  const unresolved = order.status === 'created' && charge.redirectUrl !== null;
  return {
    id: charge.id,
    orderId: charge.orderId,
    status: charge.status as CardChargeStatus,
    redirectLink: unresolved ? charge.redirectUrl : null,
    success: SUCCESS_STATUSES.includes(order.status),
    unresolved,
    last4: charge.last4,
    order: json,
  };
}

export async function chargeJson(
  db: Executor,
  charge: CardChargeRow,
  order?: OrderRow,
): Promise<CardChargeJson> {
  const o = order ?? (await findOrder(db, charge.orderId))!;
  return chargeJsonOf(charge, o, await orderJson(db, o));
}

/** The caller's card charge with its order; undefined for an unknown or someone else's id. */
export async function ownCharge(db: Executor, buyerId: string, chargeId: string) {
  const [row] = await db
    .select({ charge: cardCharges, order: orders })
    .from(cardCharges)
    .innerJoin(orders, eq(orders.id, cardCharges.orderId))
    .where(and(eq(cardCharges.id, chargeId), eq(cardCharges.buyerId, buyerId)));
  return row;
}

/**
 * The charge of `buyerId` named `chargeId` with its order, the order's editions and its events (JSON
 * aggregates, whose timestamps arrive as text): what chargeJson reads, in one query.
 */
function prepareOwnChargeRow(db: Database) {
  const editions = sql<EditionRow[]>`(select coalesce(json_agg(json_build_object(
      'blueprintId', ${orderItems.blueprintId}, 'flowBlueprintId', ${orderItems.flowBlueprintId},
      'title', ${blueprints.title}, 'serialNumber', ${orderItems.serialNumber}, 'nftId', ${orderItems.nftId}
    ) order by ${orderItems.flowBlueprintId}), '[]')
    from ${orderItems} inner join ${blueprints} on ${blueprints.id} = ${orderItems.blueprintId}
    where ${orderItems.orderId} = ${orders.id})`;
  const events = sql<{ type: string; detail: string | null; at: string }[]>`(select coalesce(json_agg(
      json_build_object('type', ${orderEvents.type}, 'detail', ${orderEvents.detail}, 'at', ${orderEvents.createdAt})
      order by ${orderEvents.createdAt}), '[]')
    from ${orderEvents} where ${orderEvents.orderId} = ${orders.id})`;
  const query = db
    .select({ charge: cardCharges, order: orders, editions, events })
    .from(cardCharges)
    .innerJoin(orders, eq(orders.id, cardCharges.orderId))
    .where(
      and(
        eq(cardCharges.id, sql.placeholder('chargeId')),
        eq(cardCharges.buyerId, sql.placeholder('buyerId')),
      ),
    );
  return prepareNamed(query, 'card_charge_answer');
}

/**
 * Reads the caller's card charge as chargeJson answers it, with one prepared query (prepared on
 * first use); undefined for an unknown or someone else's id.
 */
export function ownChargeReader(db: Database) {
  let query: ReturnType<typeof prepareOwnChargeRow> | undefined;
  return async (buyerId: string, chargeId: string): Promise<CardChargeJson | undefined> => {
    query ??= prepareOwnChargeRow(db);
    const [row] = await query.execute({ chargeId, buyerId });
    if (!row) return undefined;
    const events = row.events.map((e) => ({ type: e.type, detail: e.detail, createdAt: new Date(e.at) }));
    return chargeJsonOf(row.charge, row.order, orderJsonOf(row.order, row.editions, events));
  };
}

/** The caller's charges waiting for 3-D Secure (newest first). */
export async function unresolvedCharges(db: Executor, buyerId: string, now: Date) {
  return db
    .select({ charge: cardCharges, order: orders })
    .from(cardCharges)
    .innerJoin(orders, eq(orders.id, cardCharges.orderId))
    .where(
      and(
        eq(cardCharges.buyerId, buyerId),
        eq(orders.status, 'created'),
        gt(orders.expiresAt, now),
        sql`${cardCharges.redirectUrl} is not null`,
      ),
    )
    .orderBy(sql`${cardCharges.createdAt} desc`);
}
