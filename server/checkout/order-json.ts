import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { errorMessage } from '#domain/errors';
import type { CardChargeJson, CardChargeStatus, OrderJson, OrderStatus } from '#domain/schemas/checkout';
import { openSessionOf } from '../auth/sessions';
import type { Clock } from '../clock';
import { type Database, type Executor, prepareNamed } from '../db';
import { blueprints, cardCharges, orderEvents, orderItems, orders, storefronts } from '../db/schema';
import type { SessionClaims } from '../http';
import { type CardChargeRow, EVENT_RANK, findOrder, type OrderRow } from './orders';

/** An order and its card charge as the API answers them, and the buyer's own charges. */

/** An edition of an order as its JSON shows it. */
interface EditionRow {
  blueprintId: string;
  flowBlueprintId: number;
  title: string;
  serialNumber: number | null;
  nftId: string | null;
  previewImageUrl: string | null;
  storefrontId: string;
  storefrontName: string;
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
      previewImageUrl: e.previewImageUrl,
      storefront: { id: e.storefrontId, name: e.storefrontName },
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
      previewImageUrl: blueprints.previewImageUrl,
      storefrontId: storefronts.id,
      storefrontName: storefronts.name,
    })
    .from(orderItems)
    .innerJoin(blueprints, eq(blueprints.id, orderItems.blueprintId))
    .innerJoin(storefronts, eq(storefronts.id, blueprints.storefrontId))
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

/** The editions of the order of the statement's row (orders.id), as one JSON array. */
const editionsOfOrder = () => sql<EditionRow[]>`(select coalesce(json_agg(json_build_object(
      'blueprintId', ${orderItems.blueprintId}, 'flowBlueprintId', ${orderItems.flowBlueprintId},
      'title', ${blueprints.title}, 'serialNumber', ${orderItems.serialNumber}, 'nftId', ${orderItems.nftId},
      'previewImageUrl', ${blueprints.previewImageUrl}, 'storefrontId', ${storefronts.id},
      'storefrontName', ${storefronts.name}
    ) order by ${orderItems.flowBlueprintId}), '[]')
    from ${orderItems} inner join ${blueprints} on ${blueprints.id} = ${orderItems.blueprintId}
    inner join ${storefronts} on ${storefronts.id} = ${blueprints.storefrontId}
    where ${orderItems.orderId} = ${orders.id})`;

/** The timeline events of the order of the statement's row, as one JSON array (times as text). */
const eventsOfOrder = () => sql<
  { type: string; detail: string | null; at: string }[]
>`(select coalesce(json_agg(
      json_build_object('type', ${orderEvents.type}, 'detail', ${orderEvents.detail}, 'at', ${orderEvents.createdAt})
      order by ${orderEvents.createdAt}), '[]')
    from ${orderEvents} where ${orderEvents.orderId} = ${orders.id})`;

const eventRows = (events: { type: string; detail: string | null; at: string }[]) =>
  events.map((e) => ({ type: e.type, detail: e.detail, createdAt: new Date(e.at) }));

/**
 * The charge of `buyerId` named `chargeId` with its order, the order's editions and its events (JSON
 * aggregates, whose timestamps arrive as text): what chargeJson reads, in one query.
 */
function prepareOwnChargeRow(db: Database) {
  const query = db
    .select({ charge: cardCharges, order: orders, editions: editionsOfOrder(), events: eventsOfOrder() })
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
 * The same charge and whether the caller's session (sessionId, tokenVersion) is open: the card
 * purchase page's poll, in one query. A charge always has its order, so the second left join only
 * finds the charge's.
 */
function preparePolledChargeRow(db: Database) {
  const query = db
    .select({
      open: openSessionOf(),
      charge: cardCharges,
      order: orders,
      editions: editionsOfOrder(),
      events: eventsOfOrder(),
    })
    .from(sql`(select 1) as tick`)
    .leftJoin(
      cardCharges,
      and(
        eq(cardCharges.id, sql.placeholder('chargeId')),
        eq(cardCharges.buyerId, sql.placeholder('userId')),
      ),
    )
    .leftJoin(orders, eq(orders.id, cardCharges.orderId));
  return prepareNamed(query, 'card_charge_poll');
}

/** A charge's answer from its row of either query. */
const chargeAnswerOf = (row: {
  charge: CardChargeRow;
  order: OrderRow;
  editions: EditionRow[];
  events: Parameters<typeof eventRows>[0];
}) => chargeJsonOf(row.charge, row.order, orderJsonOf(row.order, row.editions, eventRows(row.events)));

/**
 * Reads the caller's card charge as chargeJson answers it, with one prepared query (prepared on
 * first use); undefined for an unknown or someone else's id.
 */
export function ownChargeReader(db: Database) {
  let query: ReturnType<typeof prepareOwnChargeRow> | undefined;
  return async (buyerId: string, chargeId: string): Promise<CardChargeJson | undefined> => {
    query ??= prepareOwnChargeRow(db);
    const [row] = await query.execute({ chargeId, buyerId });
    return row && chargeAnswerOf(row);
  };
}

/**
 * The card purchase page's poll tick: the caller's card charge as chargeJson answers it, checking
 * the caller's session in the same prepared query (prepared on first use): 'closed' when the
 * session is not open (logged out, revoked, expired, user blocked, password changed), undefined
 * for an unknown or someone else's id.
 */
export function polledChargeReader(db: Database, clock: Clock) {
  let query: ReturnType<typeof preparePolledChargeRow> | undefined;
  return async (claims: SessionClaims, chargeId: string): Promise<CardChargeJson | 'closed' | undefined> => {
    query ??= preparePolledChargeRow(db);
    const [row] = await query.execute({
      chargeId,
      userId: claims.userId,
      sessionId: claims.sid,
      tokenVersion: claims.tv,
      now: clock(),
    });
    if (!row?.open) return 'closed';
    if (!row.charge || !row.order) return undefined;
    return chargeAnswerOf({ ...row, charge: row.charge, order: row.order });
  };
}

/**
 * The order `orderId` of `userId` as orderJson answers it, and whether the caller's session
 * (sessionId, tokenVersion) is open: the purchase-complete poll's one query.
 */
function prepareOwnOrderRow(db: Database) {
  const query = db
    .select({ open: openSessionOf(), order: orders, editions: editionsOfOrder(), events: eventsOfOrder() })
    .from(sql`(select 1) as tick`)
    .leftJoin(
      orders,
      and(eq(orders.id, sql.placeholder('orderId')), eq(orders.buyerId, sql.placeholder('userId'))),
    );
  return prepareNamed(query, 'order_answer');
}

/**
 * Reads the caller's order as orderJson answers it, checking the caller's session in the same
 * prepared query (prepared on first use): 'closed' when the session is not open (logged out,
 * revoked, expired, user blocked, password changed), undefined for an unknown or someone else's id.
 */
export function ownOrderReader(db: Database, clock: Clock) {
  let query: ReturnType<typeof prepareOwnOrderRow> | undefined;
  return async (claims: SessionClaims, orderId: string): Promise<OrderJson | 'closed' | undefined> => {
    query ??= prepareOwnOrderRow(db);
    const [row] = await query.execute({
      orderId,
      userId: claims.userId,
      sessionId: claims.sid,
      tokenVersion: claims.tv,
      now: clock(),
    });
    if (!row?.open) return 'closed';
    if (!row.order) return undefined;
    return orderJsonOf(row.order, row.editions, eventRows(row.events));
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
