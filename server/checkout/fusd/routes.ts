import * as v from 'valibot';
import { FusdOrderJson } from '#domain/responses/checkout';
import { CreateFusdOrderBody, UpdateFusdOrderBody } from '#domain/schemas/fusd';
import type { Services } from '../../deps';
import { defineRoute, notFound, type Route } from '../../http';
import { findOrder } from '../orders';
import { confirmFusdPayment, fusdOrderJson, ownFusdOrder } from './fusd';
import { chainOf, startFusdPurchase } from './purchase';

const OrderIdParams = v.object({ id: v.pipe(v.string(), v.uuid('INVALID_VALUE.id')) });

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
        const { answer, repeated } = await startFusdPurchase(s, {
          user: c.get('user')!,
          clientAddress: s.clientAddress(c),
          body,
        });
        return c.json(answer, repeated ? 200 : 201);
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
