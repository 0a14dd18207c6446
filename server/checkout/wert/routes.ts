import * as v from 'valibot';
import { ErrorCode } from '#domain/errors';
import { WertChargeJson, WertChargeList } from '#domain/responses/checkout';
import { CreateWertChargeBody, UpdateWertChargeBody, WertChargeListQuery } from '#domain/schemas/wert';
import type { Services } from '../../deps';
import { apiError, badRequest, defineRoute, forbidden, notFound, type Route } from '../../http';
import { type OnrampProvider, OnrampProviderUnavailableError } from '../../payments/onramp-provider';
import { onrampOf, startWertPurchase, wertAnswer } from './purchase';
import { findWertCharge, listWertCharges } from './queries';
import { cancelWert, paymentLive, settleWert, syncWert, type WertSettleOutcome } from './settle';
import { reportWert } from './wert';

const ChargeIdParams = v.object({ id: v.pipe(v.string(), v.uuid('INVALID_VALUE.id')) });

/** An authorized payment or a refund leaves work for the jobs: they are woken at once. */
const after = (s: Services, outcome: WertSettleOutcome) => {
  if (outcome.kind === 'authorized' || outcome.kind === 'refund') s.jobs?.nudge();
};

/** The caller's charge: 404 when there is none and when it is another buyer's (alike: nobody learns which ids exist). */
async function own(s: Services, userId: string, id: string) {
  const row = await findWertCharge(s.db, id);
  if (!row || row.buyerId !== userId) throw notFound();
  return row;
}

const unavailable = () => apiError(502, ErrorCode.ONRAMP_PROVIDER);

/**
 * wert-charges: pay a new edition by card in the on-ramp provider's widget. POST reserves
 * one unit of a blueprint or pack (an order, method wert, as the card and crypto checkouts do:
 * NOT_PURCHASABLE, PRICE_CHANGED, SOLD_OUT, one open on-ramp charge per buyer: CHARGE_PENDING) and
 * answers the widget's options signed by the server; the amount is always the server's price. The
 * buyer sees only their own charges (another's: 404, as an unknown one, so ids cannot be probed). PATCH cancels (only while nothing was paid:
 * wert_cancel_fail), takes the client's reports of the widget's progress, and reads the provider.
 */
export function wertChargeRoutes(s: Services): Route[] {
  return [...wertStartRoutes(s), ...wertReadRoutes(s), ...wertChangeRoutes(s)];
}

/** Starting a card-to-crypto charge. */
function wertStartRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/wert-charges',
      tag: 'checkout',
      auth: 'required',
      summary:
        'Reserves one unit of a blueprint or pack for a card payment in the on-ramp widget; answers the widget options signed by the server',
      body: CreateWertChargeBody,
      response: WertChargeJson,
      responses: {
        200: 'WertCharge: the charge of an earlier request with the same idempotencyKey',
        201: 'WertCharge { id, clickId, status: created, partnerId, origin, signedData, itemInfo, … }',
        400: 'Invalid field; NOT_PURCHASABLE, WALLET_REQUIRED',
        401: 'Not logged in',
        404: 'No such item',
        409: 'PRICE_CHANGED, SOLD_OUT, CHARGE_PENDING (with chargeId), ITEM_HELD (the buyer or their address holds an unpaid unit of it), HOLD_LIMIT (3 unpaid holds)',
        429: 'HOLD_COOLDOWN: the buyer’s hold of this item expired under a minute ago (Retry-After)',
        503: 'The on-ramp is off',
      },
      async handler(c, { body }) {
        const { answer, repeated } = await startWertPurchase(s, {
          user: c.get('user')!,
          clientAddress: s.clientAddress(c),
          body,
        });
        return c.json(answer, repeated ? 200 : 201);
      },
    }),
  ];
}

/** The caller's card-to-crypto charges: the list and one by id. */
function wertReadRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/wert-charges',
      tag: 'checkout',
      auth: 'required',
      summary:
        'The caller’s on-ramp charges, newest first (at most 50), optionally of some statuses and items',
      query: WertChargeListQuery,
      response: WertChargeList,
      responses: { 200: '{ results: WertCharge[] }', 401: 'Not logged in', 403: 'Another user' },
      async handler(c, { query }) {
        const user = c.get('user')!;
        if (query.userId !== user.id) throw forbidden();
        const rows = await listWertCharges(s.db, user.id, query);
        return c.json({ results: await Promise.all(rows.map((row) => wertAnswer(s, row))) });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/wert-charges/{id}',
      tag: 'checkout',
      auth: 'required',
      summary: 'One of the caller’s on-ramp charges with its order and timeline',
      params: ChargeIdParams,
      response: WertChargeJson,
      responses: {
        200: 'WertCharge',
        401: 'Not logged in',
        404: 'No such charge of the caller’s (also for another buyer’s)',
      },
      async handler(c, { params }) {
        return c.json(await wertAnswer(s, await own(s, c.get('user')!.id, params.id)));
      },
    }),
  ];
}

/** Changing a card-to-crypto charge. */
function wertChangeRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'patch',
      path: '/wert-charges/{id}',
      tag: 'checkout',
      auth: 'required',
      summary:
        'status canceled gives the purchase up while nothing was paid (unit released); paymentStarted and transferStarted are the widget’s reports that the payment, then the transfer, started (forward only); either way, and without a status, what the provider confirms is applied',
      params: ChargeIdParams,
      body: UpdateWertChargeBody,
      response: WertChargeJson,
      responses: {
        200: 'WertCharge',
        400: 'wert_cancel_fail: a payment started or was made; INVALID_VALUE status',
        401: 'Not logged in',
        404: 'No such charge of the caller’s (also for another buyer’s)',
        502: 'ONRAMP_PROVIDER: the provider could not be asked',
        503: 'The on-ramp is off',
      },
      async handler(c, { params, body }) {
        // Whose charge it is comes first: another buyer learns nothing, not even that the on-ramp is off.
        const row = await own(s, c.get('user')!.id, params.id);
        const onramp = onrampOf(s);
        const reread = async () => (await findWertCharge(s.db, row.id))!;

        if (body.status === 'canceled') {
          if (row.status === 'canceled') return c.json(await wertAnswer(s, row));
          // Nothing paid? Only the provider knows: a payment it confirms is applied, and the
          // cancel refused. (A payment made in a widget left open after this is given back.)
          let found: Awaited<ReturnType<OnrampProvider['findOrders']>>;
          try {
            found = (await onramp.findOrders(row.id)).filter((o) => o.clickId === row.id);
          } catch (err) {
            if (err instanceof OnrampProviderUnavailableError) throw unavailable();
            throw err;
          }
          const live = found.filter(paymentLive).reverse();
          for (const po of live) after(s, await settleWert(s.db, row.id, po, s.clock()));
          if (live.length > 0 || (await cancelWert(s.db, row.id, s.clock())) === 'refused')
            throw badRequest(ErrorCode.WERT_CANCEL_FAIL);
          return c.json(await wertAnswer(s, await reread()));
        }

        // The browser's word moves an open charge forward only; it pays for nothing.
        if (body.status) await reportWert(s.db, row.id, body.status, s.clock());
        try {
          after(s, await syncWert(s.db, onramp, row, s.clock()));
        } catch (err) {
          if (!(err instanceof OnrampProviderUnavailableError)) throw err;
          // A report is kept even when the provider cannot be asked; a sync needs the provider.
          if (!body.status) throw unavailable();
        }
        return c.json(await wertAnswer(s, await reread()));
      },
    }),
  ];
}
