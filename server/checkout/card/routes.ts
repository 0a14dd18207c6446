import { desc, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { SESSION_EXPIRED_TEXT } from '#domain/apiError';
import { ErrorCode } from '#domain/errors';
import { CardChargeJson, CardChargeList } from '#domain/responses/checkout';
import { CreateCardChargeBody, SyncCardChargeBody } from '#domain/schemas/checkout';
import { cardCharges, orders } from '../../db/schema';
import type { Services } from '../../deps';
import { badRequest, defineRoute, notFound, type Route, unauthorized } from '../../http';
import { chargeJson, ownCharge, polledChargeReader, unresolvedCharges } from '../order-json';
import { cardChargeAnswer, startCardPurchase, syncCardCharge } from './purchase';
import { cancelOrder, voidFailedOrder } from './settle';

const ChargeIdParams = v.object({ id: v.pipe(v.string(), v.uuid()) });
const ChargeListQuery = v.object({
  unresolved: v.optional(v.picklist(['true', 'false'], 'INVALID_VALUE.unresolved')),
});

/**
 * Card payments for new editions (docs/checkout.md): create (reserve, then authorize at the
 * provider), read, list the ones waiting for 3-D Secure, sync with the provider, cancel. A charge of
 * someone else is unknown (404).
 */
export function cardChargeRoutes(s: Services): Route[] {
  const readPolledCharge = polledChargeReader(s.db, s.clock);

  return [
    defineRoute({
      method: 'post',
      path: '/checkout-com-charges',
      tag: 'checkout',
      auth: 'required',
      summary:
        'Pays for a blueprint or a pack by card: reserves one unit, then asks the provider to authorize the price (3-D Secure on); the server computes the amount',
      body: CreateCardChargeBody,
      response: CardChargeJson,
      responses: {
        200: 'CardCharge: the charge of an earlier request with the same idempotencyKey',
        201: 'CardCharge: success (authorized), or unresolved with redirectLink (3-D Secure)',
        400: 'Invalid field; NOT_PURCHASABLE, WALLET_REQUIRED, CARD_TOKEN, CARD_TYPE (payment voided), CARD_DUPLICATE (payment voided), CARD_EXPIRED (a saved card past its expiry), CARD_CVV (no CVV for a saved card), CARD_DECLINED, INVALID_ADDRESS, PHONE_SHORT, PHONE_COUNTRY; Apple Pay / Google Pay (billingInfo.wallet): APPLE_PAY_ADDRESS, CHECKOUT_COM_TOKEN',
        401: 'Not logged in',
        402: 'Declined by the card issuer, with orderId: CARD_INSUFFICIENT_FUNDS, else CARD_DECLINED (a wrong number, expiry or CVV is not told apart)',
        404: 'No such item, or no such saved card of the caller',
        409: 'PRICE_CHANGED, SOLD_OUT, CHARGE_PENDING (with chargeId), ITEM_HELD (the buyer or their address holds an unpaid unit of it), HOLD_LIMIT (3 unpaid holds)',
        429: 'RATE_LIMITED: 5 card checks per account in 10 minutes, or 20 per address in an hour; HOLD_COOLDOWN: the buyer’s hold of this item expired under a minute ago (Retry-After)',
        502: 'PAYMENT_PROVIDER: the card processor could not be reached (reservation released)',
        503: 'Card payments are off',
      },
      async handler(c, { body }) {
        const user = c.get('user')!;
        const started = await startCardPurchase(s, { user, clientAddress: s.clientAddress(c), body });
        return c.json(started.answer, started.repeated ? 200 : 201);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/checkout-com-charges',
      tag: 'checkout',
      auth: 'required',
      summary:
        'The caller’s card charges, newest first (at most 20); with unresolved=true only those waiting for 3-D Secure',
      query: ChargeListQuery,
      response: CardChargeList,
      responses: { 200: '{ results: CardCharge[] }', 401: 'Not logged in' },
      async handler(c, { query }) {
        const user = c.get('user')!;
        const rows =
          query.unresolved === 'true'
            ? await unresolvedCharges(s.db, user.id, s.clock())
            : await s.db
                .select({ charge: cardCharges, order: orders })
                .from(cardCharges)
                .innerJoin(orders, eq(orders.id, cardCharges.orderId))
                .where(eq(cardCharges.buyerId, user.id))
                .orderBy(desc(cardCharges.createdAt))
                .limit(20);
        const results: CardChargeJson[] = [];
        for (const row of rows) results.push(await chargeJson(s.db, row.charge, row.order));
        return c.json({ results });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/checkout-com-charges/{id}',
      tag: 'checkout',
      // The card purchase page polls this: the session is checked in the charge's one statement.
      auth: 'token',
      summary: 'One of the caller’s card charges with its order and timeline',
      params: ChargeIdParams,
      response: CardChargeJson,
      responses: { 200: 'CardCharge', 401: 'Not logged in', 404: 'No such charge of the caller' },
      async handler(c, { params }) {
        const charge = await readPolledCharge(c.get('claims')!, params.id);
        if (charge === 'closed') throw unauthorized(SESSION_EXPIRED_TEXT);
        if (!charge) throw notFound();
        return c.json(charge);
      },
    }),
    ...cardChargeActionRoutes(s),
  ];
}

/** The buyer's actions on a card charge: sync it with the provider, cancel it. */
function cardChargeActionRoutes(s: Services): Route[] {
  const answer = cardChargeAnswer(s);
  return [
    defineRoute({
      method: 'patch',
      path: '/checkout-com-charges/{id}/actions/sync',
      tag: 'checkout',
      auth: 'required',
      summary:
        'Asks the provider for the charge’s payment (by the 3-D Secure session the buyer came back with, else by the payment) and settles the order as a webhook would',
      params: ChargeIdParams,
      body: SyncCardChargeBody,
      response: CardChargeJson,
      responses: {
        200: 'CardCharge',
        400: 'INVALID_VALUE.ckoSessionId: the session is not this charge’s',
        401: 'Not logged in',
        404: 'No such charge of the caller',
        502: 'PAYMENT_PROVIDER',
        503: 'Card payments are off',
      },
      async handler(c, { params, body }) {
        const user = c.get('user')!;
        const row = await ownCharge(s.db, user.id, params.id);
        if (!row) throw notFound();
        // Only an unpaid order has anything to learn from the provider; settled ones answer as they are.
        if (row.order.status === 'created' && (row.charge.paymentId || body.ckoSessionId)) {
          if (!row.charge.paymentId) throw badRequest(ErrorCode.INVALID_VALUE, 'ckoSessionId');
          await syncCardCharge(s, row.order, row.charge.paymentId, body.ckoSessionId);
        }
        return c.json(await answer(params.id, user.id));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/checkout-com-charges/{id}/actions/cancel',
      tag: 'checkout',
      auth: 'required',
      summary:
        'Cancels a charge that waits for the buyer: the order is canceled and its unit released; a payment the provider authorized anyway is voided',
      params: ChargeIdParams,
      response: CardChargeJson,
      responses: {
        200: 'CardCharge (order canceled)',
        400: 'CHARGE_NOT_CANCELLABLE: the charge is settled',
        401: 'Not logged in',
        404: 'No such charge of the caller',
      },
      async handler(c, { params }) {
        const user = c.get('user')!;
        const row = await ownCharge(s.db, user.id, params.id);
        if (!row) throw notFound();
        const canceled = await cancelOrder(s.db, row.order.id, s.clock());
        if (!canceled && row.order.status !== 'canceled') throw badRequest(ErrorCode.CHARGE_NOT_CANCELLABLE);
        if (canceled && row.charge.paymentId) {
          s.jobs?.nudge();
          if (s.cardProvider) {
            // Still pending at the provider: the fulfil job keeps watching it and voids it if approved.
            await voidFailedOrder(s.db, s.cardProvider, row.order.id, s.clock).catch(() => undefined);
          }
        }
        return c.json(await answer(params.id, user.id));
      },
    }),
  ];
}
