import { and, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { ErrorCode } from '#domain/errors';
import { FusdOrderJson } from '#domain/responses/checkout';
import { CreateFusdOrderBody, UpdateFusdOrderBody } from '#domain/schemas/fusd';
import { getFusdBalance } from '../../chain/actions';
import { centsToUfix64 } from '../../chain/treasury';
import { orders } from '../../db/schema';
import type { Services } from '../../deps';
import { apiError, badRequest, defineRoute, notFound, type Route } from '../../http';
import { assertPurchasable, findCheckoutItem } from '../items';
import { findOrder } from '../orders';
import { paidOn } from '../rails';
import { reserveOn } from '../workflow/reserve';
import { confirmFusdPayment, fusdOrderJson, ownFusdOrder, ufixUnits } from './fusd';
import { fusdRail } from './rail';

const OrderIdParams = v.object({ id: v.pipe(v.string(), v.uuid('INVALID_VALUE.id')) });

/** The chain client: 503 when the chain is not available. */
function chainOf(s: Services) {
  if (!s.chainClient) throw apiError(503, 'unavailable', undefined, 'The chain is not available.');
  return s.chainClient;
}

/**
 * fusd-orders: a new edition (blueprint or pack) paid with the FUSD balance, on chain from the
 * buyer's wallet. POST reserves one unit for 15 minutes at the price the buyer saw; the wallet then
 * pays `fusdAmount` for the order's id (transactions/pay_order.cdc); PATCH with the transaction id
 * has the server read the sealed transaction and serve the order. The amount is always the
 * server's; a payment that does not pay a waiting order exactly is sent back (server/checkout/fusd/fusd.ts).
 */
export function fusdOrderRoutes(s: Services): Route[] {
  return [...fusdStartRoutes(s), ...fusdOrderStateRoutes(s)];
}

/** Starting an FUSD order. */
function fusdStartRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/fusd-orders',
      tag: 'checkout',
      auth: 'required',
      summary:
        'Reserves a blueprint or pack for a payment from the FUSD balance; answers the order id and the exact FUSD amount to pay on chain',
      body: CreateFusdOrderBody,
      response: FusdOrderJson,
      responses: {
        200: 'FusdOrder: the order of an earlier request with the same idempotencyKey',
        201: 'FusdOrder',
        400: 'Invalid field; NOT_PURCHASABLE, WALLET_REQUIRED; INVALID_VALUE.idempotencyKey (the key of another purchase)',
        402: 'INSUFFICIENT_FUNDS: the wallet’s FUSD balance does not cover the price',
        401: 'Not logged in',
        404: 'No such item',
        409: 'PRICE_CHANGED, SOLD_OUT, ITEM_HELD, HOLD_LIMIT',
        429: 'HOLD_COOLDOWN: the buyer’s hold of this item expired under a minute ago (Retry-After)',
        503: 'The chain is not available',
      },
      async handler(c, { body }) {
        chainOf(s);
        const user = c.get('user')!;
        const now = s.clock();
        if (!user.walletAddress) throw badRequest(ErrorCode.WALLET_REQUIRED);
        const ref = body.blueprintPackId
          ? { kind: 'pack' as const, id: body.blueprintPackId }
          : { kind: 'blueprint' as const, id: body.blueprintId! };
        const item = await findCheckoutItem(s.db, ref, now);
        if (!item) throw notFound();
        // A retry answers the first order whatever happened since; only a new one is checked.
        const [earlier] = await s.db
          .select()
          .from(orders)
          .where(and(eq(orders.buyerId, user.id), eq(orders.idempotencyKey, body.idempotencyKey)));
        if (!earlier) {
          assertPurchasable(item);
          // The balance buys a printed item only through one of its resale listings.
          if (item.printed) throw badRequest(ErrorCode.NOT_PURCHASABLE);
          if (item.price !== body.expectedPrice) throw apiError(409, ErrorCode.PRICE_CHANGED);
          // A balance order holds a unit only when the wallet's FUSD covers it (else anyone could
          // hold units with an empty wallet).
          const balance = await getFusdBalance(chainOf(s), user.walletAddress).catch(() => {
            throw apiError(503, 'unavailable', undefined, 'The chain is not available.');
          });
          if (ufixUnits(balance) < ufixUnits(centsToUfix64(item.price)))
            throw apiError(402, ErrorCode.INSUFFICIENT_FUNDS);
        }
        const { order, repeated } = earlier
          ? { order: earlier, repeated: true }
          : await reserveOn(s.db, fusdRail, {
              buyerId: user.id,
              clientAddress: s.clientAddress(c),
              idempotencyKey: body.idempotencyKey,
              item,
              walletAddress: user.walletAddress,
              now,
            });
        // The key of another purchase (by card, crypto, or a free claim): not this one's.
        if (!paidOn(order, fusdRail))
          throw badRequest(
            ErrorCode.INVALID_VALUE,
            'idempotencyKey',
            'This key belongs to another purchase.',
          );
        return c.json(await fusdOrderJson(s.db, order), repeated ? 200 : 201);
      },
    }),
  ];
}

/** Reading and changing the caller's FUSD order. */
function fusdOrderStateRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/fusd-orders/{id}',
      tag: 'checkout',
      auth: 'required',
      summary: 'One of the caller’s balance orders with its payments and timeline',
      params: OrderIdParams,
      response: FusdOrderJson,
      responses: { 200: 'FusdOrder', 401: 'Not logged in', 404: 'No such balance order of the caller' },
      async handler(c, { params }) {
        const order = await ownFusdOrder(s.db, c.get('user')!.id, params.id);
        if (!order) throw notFound();
        return c.json(await fusdOrderJson(s.db, order));
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/fusd-orders/{id}',
      tag: 'checkout',
      auth: 'required',
      summary:
        'Reports the transaction that paid the order: the server reads it from the chain and, when it pays the order exactly, mints',
      params: OrderIdParams,
      body: UpdateFusdOrderBody,
      response: FusdOrderJson,
      responses: {
        200: 'FusdOrder',
        400: 'TRANSACTION: the transaction failed or pays nothing for this order',
        401: 'Not logged in',
        404: 'No such balance order of the caller',
        409: 'TRANSACTION_PENDING: not sealed yet, report again',
        503: 'The chain is not available',
      },
      async handler(c, { params, body }) {
        const order = await ownFusdOrder(s.db, c.get('user')!.id, params.id);
        if (!order) throw notFound();
        const applied = await confirmFusdPayment(s.db, chainOf(s), order.id, body.transactionId, s.clock());
        if (applied.some((a) => a !== 'unchanged')) s.jobs?.nudge();
        return c.json(await fusdOrderJson(s.db, (await findOrder(s.db, order.id))!));
      },
    }),
  ];
}
