import * as v from 'valibot';
import { SESSION_EXPIRED_TEXT } from '#domain/apiError';
import { OrderJson } from '#domain/responses/checkout';
import type { Services } from '../deps';
import { defineRoute, notFound, type Route, unauthorized } from '../http';
import { ownOrderReader } from './order-json';

const OrderIdParams = v.object({ id: v.pipe(v.string(), v.uuid()) });

/** Orders of new editions (card purchases and free claims), each visible to its buyer only. */
export function orderRoutes(s: Services): Route[] {
  const readOwnOrder = ownOrderReader(s.db, s.clock);
  return [
    defineRoute({
      method: 'get',
      path: '/orders/{id}',
      tag: 'checkout',
      // The purchase-complete page polls this: the session is checked in the order's one statement.
      auth: 'token',
      summary: 'One of the caller’s orders: status, editions (serial numbers, NFTs), failure and timeline',
      params: OrderIdParams,
      response: OrderJson,
      responses: { 200: 'Order', 401: 'Not logged in', 404: 'No such order of the caller' },
      async handler(c, { params }) {
        const order = await readOwnOrder(c.get('claims')!, params.id);
        if (order === 'closed') throw unauthorized(SESSION_EXPIRED_TEXT);
        if (!order) throw notFound();
        return c.json(order);
      },
    }),
  ];
}
