import { and, eq, gt, sql } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import type { CheckoutItem, CreateBillingInfoBody } from '#domain/schemas/checkout';
import type { Database, Executor } from '../db';
import {
  blueprintPacks,
  blueprints,
  cardCharges,
  orderEvents,
  orderItems,
  orders,
  users,
} from '../db/schema';
import { apiError } from '../http';
import { enqueueJob } from '../jobs';
import { checkHolds } from './holds';
import type { CheckoutItemRecord } from './items';
import type { PaymentRail, RailCharge } from './payment-rail';

/**
 * Orders of new editions (docs/checkout.md "Order life"): the order's row and timeline, and the
 * reservation of a unit (items.ts says what can be bought; failures.ts how an unpaid order ends;
 * settle.ts settles, cancels and expires card orders; order-json.ts is what the routes answer). Every change of an order's status happens in a
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

/* ---- Events ---- */

/** Timeline order for events written at the same instant. */
export const EVENT_RANK = [
  'created',
  'payment_seen',
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

/**
 * The order's payment is secured: the order is `authorized`, its timeline says how it was paid, and
 * its `fulfil` job (mint, then capture where the rail captures) is queued.
 */
export async function authorizeOrder(tx: Executor, orderId: string, at: Date, detail: string | null) {
  await tx.update(orders).set({ status: 'authorized', updatedAt: at }).where(eq(orders.id, orderId));
  await addEvent(tx, orderId, 'authorized', at, detail);
  await enqueueJob(tx, FULFIL_JOB, orderId, at);
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
  /** The client address the request comes from (the holds rule, ./holds.ts). */
  clientAddress: string;
  idempotencyKey: string;
  method: OrderMethod;
  item: CheckoutItemRecord;
  walletAddress: string;
  now: Date;
  /** A card order paid with an Apple Pay or Google Pay token (named in the `created` event). */
  wallet?: 'applepay' | 'googlepay' | null;
  /** The rail that pays the order (./rails.ts names the method it is written with). */
  rail: PaymentRail;
  /** The charge this request opens on the rail, when the rail does not open its own (`rail.charge`). */
  charge?: RailCharge;
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
 * the `created` event and the rail's charge (`attach`). The buyer's row is locked, so one buyer's
 * concurrent purchases are checked one at a time (the rail's `pending`, e.g. CHARGE_PENDING: another
 * payment on the same rail is unresolved; then the holds rule of ./holds.ts). A key of the buyer's
 * purchase on another rail is refused by the route (INVALID_VALUE.idempotencyKey). A free rail's order
 * is authorized at once, for 0, and skips the holds rule.
 */
export async function reserve(db: Database, input: ReserveInput): Promise<Reserved> {
  const { item, now, rail } = input;
  const charge = input.charge ?? rail.charge?.(input);
  if (!charge) throw new Error('this rail opens its charge from the request: reserve needs it');
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, input.buyerId)).for('update');
    const [existing] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.buyerId, input.buyerId), eq(orders.idempotencyKey, input.idempotencyKey)));
    // A repeat answers the first order; a rail finds its own charge of it (none: the key is another
    // rail's purchase, which the rail refuses).
    if (existing) return { order: existing, repeated: true };
    const pending = await charge.pending(tx);
    if (pending) throw chargePending(pending.id);
    const free = rail.free === true;
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
        clientAddress: input.clientAddress,
        status: free ? 'authorized' : 'created',
        expiresAt: new Date(now.getTime() + rail.orderTtlMs),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!(await takeUnit(tx, item))) {
      throw free
        ? apiError(400, ErrorCode.CLAIM_BLUEPRINT, undefined, 'This item is sold out.')
        : apiError(409, ErrorCode.SOLD_OUT);
    }
    // Checked once the unit is taken: a sold-out item answers SOLD_OUT, whoever asks.
    if (!free)
      await checkHolds(tx, {
        orderId: order!.id,
        buyerId: input.buyerId,
        clientAddress: input.clientAddress,
        itemId: item.id,
        now,
      });
    await tx.insert(orderItems).values(
      item.blueprints.map((b) => ({
        orderId: order!.id,
        blueprintId: b.id,
        flowBlueprintId: b.flowBlueprintId,
        createdAt: now,
      })),
    );
    const wallet = input.wallet;
    await addEvent(
      tx,
      order!.id,
      'created',
      now,
      wallet ? `Paid with ${wallet === 'applepay' ? 'Apple Pay' : 'Google Pay'}.` : undefined,
    );
    await charge.attach(tx, order!);
    return { order: order!, repeated: false };
  });
}
