import { and, eq, gt, lte, ne, or, sql } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import type { Executor } from '../db';
import { orders } from '../db/schema';
import { apiError, type HttpError } from '../http';

/**
 * How many units a buyer may hold unpaid, on every rail (card, crypto, on-ramp, FUSD balance,
 * token). An unpaid hold is an order that reserved a unit and is not paid yet (status created). A
 * free claim never holds one: it is authorized at once (and claimed once per account).
 *
 * - One unpaid unit of an item per buyer, where the buyer is the account or the client address the
 *   order comes from: many accounts behind one address hold one unit of an item between them.
 * - At most HOLDS_MAX unpaid holds in all per account.
 * - A hold that expired unpaid is not renewed by the same buyer (account or address) for
 *   HOLD_COOLDOWN_MS after it expired: the unit goes back to everyone first.
 *
 * Checked in the reservation's transaction with the buyer's row locked (server/checkout/orders.ts),
 * so one account's concurrent requests are counted one at a time; two accounts of one address racing
 * can both pass only when their transactions interleave, which PGlite (one connection) never does
 * and PostgreSQL does only for requests within the same few milliseconds.
 */
export const HOLDS_MAX = 3;
export const HOLD_COOLDOWN_MS = 60_000;

export interface HoldRequest {
  /** The order being placed (written in the same transaction): not counted against itself. */
  orderId: string;
  buyerId: string;
  /** The client address the request comes from. */
  clientAddress: string;
  itemId: string;
  now: Date;
}

/** Throws ITEM_HELD, HOLD_LIMIT (409) or HOLD_COOLDOWN (429 with Retry-After) when the rule refuses. */
export async function checkHolds(tx: Executor, request: HoldRequest): Promise<void> {
  const { orderId, buyerId, clientAddress, itemId, now } = request;
  const sameBuyer = or(eq(orders.buyerId, buyerId), eq(orders.clientAddress, clientAddress));
  const unpaid = and(eq(orders.status, 'created'), eq(orders.reserved, true), ne(orders.id, orderId));
  const [counts] = await tx
    .select({
      ofItem: sql<number>`count(*) filter (where ${and(eq(orders.itemId, itemId), sameBuyer)})::int`,
      all: sql<number>`count(*) filter (where ${eq(orders.buyerId, buyerId)})::int`,
    })
    .from(orders)
    .where(and(unpaid, sameBuyer));
  if ((counts?.ofItem ?? 0) > 0) throw apiError(409, ErrorCode.ITEM_HELD);
  if ((counts?.all ?? 0) >= HOLDS_MAX) throw apiError(409, ErrorCode.HOLD_LIMIT);
  const [expired] = await tx
    .select({ expiresAt: orders.expiresAt })
    .from(orders)
    .where(
      and(
        eq(orders.itemId, itemId),
        sameBuyer,
        eq(orders.status, 'expired'),
        lte(orders.expiresAt, now),
        gt(orders.expiresAt, new Date(now.getTime() - HOLD_COOLDOWN_MS)),
      ),
    )
    .orderBy(sql`${orders.expiresAt} desc`)
    .limit(1);
  if (expired) throw holdCooldown(expired.expiresAt.getTime() + HOLD_COOLDOWN_MS - now.getTime());
}

function holdCooldown(retryAfterMs: number): HttpError {
  const err = apiError(429, ErrorCode.HOLD_COOLDOWN);
  err.headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return err;
}
