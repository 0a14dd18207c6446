import { and, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { BillingInfoJson, BillingInfoList } from '#domain/responses/checkout';
import { noContent } from '#domain/responses/common';
import { CreateBillingInfoBody } from '#domain/schemas/checkout';
import { billingInfos } from '../../db/schema';
import type { Services } from '../../deps';
import { apiError, defineRoute, notFound, type Route } from '../../http';
import { takeCardCheck } from '../card/velocity';
import { billingInfoJson, listBillingInfos, ownBillingInfo, verifyAndSaveCard } from './billing';

const BillingInfoIdParams = v.object({ id: v.pipe(v.string(), v.uuid()) });

/**
 * The caller's saved cards (billing-info): list, add (a card token verified at the card provider)
 * and remove. Nobody sees or removes another user's cards: a foreign id is unknown (404).
 */
export function billingInfoRoutes(s: Services): Route[] {
  const provider = () => {
    if (!s.cardProvider) throw apiError(503, 'unavailable', undefined, 'Card payments are not available.');
    return s.cardProvider;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/billing-info',
      tag: 'checkout',
      auth: 'required',
      summary: 'The caller’s saved cards, newest first (last four digits, brand, expiry, billing details)',
      response: BillingInfoList,
      responses: { 200: '{ results: BillingInfo[] }', 401: 'Not logged in' },
      async handler(c) {
        const rows = await listBillingInfos(s.db, c.get('user')!.id);
        return c.json({ results: rows.map(billingInfoJson) });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/billing-info',
      tag: 'checkout',
      auth: 'required',
      summary:
        'Saves a card: a card token (tok_…) made in the browser with the provider’s public key, and the billing details; the provider verifies the card with a zero-amount payment',
      body: CreateBillingInfoBody,
      response: BillingInfoJson,
      responses: {
        201: 'BillingInfo',
        400: 'Invalid field; CARD_TOKEN (expired or used token), CARD_TYPE (not VISA, MASTERCARD or DISCOVER), CARD_DUPLICATE (same last four digits saved), CARD_DECLINED (whatever the issuer disliked: number, expiry or CVV), CARD_INSUFFICIENT_FUNDS, INVALID_ADDRESS, PHONE_SHORT, PHONE_COUNTRY',
        401: 'Not logged in',
        429: 'RATE_LIMITED: 5 card checks per account in 10 minutes, or 20 per address in an hour (Retry-After)',
        502: 'PAYMENT_PROVIDER: the card processor could not be reached',
        503: 'Card payments are off',
      },
      async handler(c, { body }) {
        const user = c.get('user')!;
        const row = await verifyAndSaveCard(s.db, provider(), user, body, s.config.publicUrl, () =>
          takeCardCheck(s.db, s.clock(), user.id, s.clientAddress(c)),
        );
        return c.json(billingInfoJson(row), 201);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/billing-info/{id}',
      tag: 'checkout',
      auth: 'required',
      summary: 'Removes one of the caller’s saved cards',
      params: BillingInfoIdParams,
      response: noContent,
      responses: { 204: 'Removed', 401: 'Not logged in', 404: 'No such card of the caller' },
      async handler(c, { params }) {
        const user = c.get('user')!;
        if (!(await ownBillingInfo(s.db, user.id, params.id))) throw notFound();
        await s.db
          .delete(billingInfos)
          .where(and(eq(billingInfos.id, params.id), eq(billingInfos.userId, user.id)));
        return c.body(null, 204);
      },
    }),
  ];
}
