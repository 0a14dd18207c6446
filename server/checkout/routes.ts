import { and, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { OrderJson } from '#domain/responses/checkout';
import { orders } from '../db/schema';
import type { Services } from '../deps';
import { defineRoute, notFound, type Route } from '../http';
import { orderJson } from './order-json';

const OrderIdParams = v.object({ id: v.pipe(v.string(), v.uuid()) });

/** Orders of new editions (card purchases and free claims), each visible to its buyer only. */
export function orderRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/orders/{id}',
      tag: 'checkout',
      auth: 'required',
      summary: 'One of the caller’s orders: status, editions (serial numbers, NFTs), failure and timeline',
      params: OrderIdParams,
      response: OrderJson,
      responses: { 200: 'Order', 401: 'Not logged in', 404: 'No such order of the caller' },
      async handler(c, { params }) {
        const [order] = await s.db
          .select()
          .from(orders)
          .where(and(eq(orders.id, params.id), eq(orders.buyerId, c.get('user')!.id)));
        if (!order) throw notFound();
        return c.json(await orderJson(s.db, order));
      },
    }),
  ];
}
