import { and, desc, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { ErrorCode } from '#domain/errors';
import { CardChargeJson, CardChargeList } from '#domain/responses/checkout';
import { CreateCardChargeBody, SyncCardChargeBody } from '#domain/schemas/checkout';
import { cardCharges, orders } from '../../db/schema';
import type { Services } from '../../deps';
import { apiError, badRequest, defineRoute, type HttpError, notFound, type Route } from '../../http';
import {
  type CardProvider,
  type PaymentRequest,
  type ProviderPayment,
  ProviderRefusedError,
  ProviderUnavailableError,
} from '../../payments/provider';
import {
  checkBilling,
  checkWalletBilling,
  ownBillingInfo,
  providerError,
  schemeAccepted,
} from '../billing/billing';
import { type Failure, failOrder, failureOf } from '../failures';
import { assertPurchasable, findCheckoutItem } from '../items';
import { chargeJson, ownCharge, ownChargeReader, unresolvedCharges } from '../order-json';
import { chargeOfOrder, type OrderRow, reserve, type SaveCardDetails } from '../orders';
import { cancelOrder, type SettleOutcome, settle, voidFailedOrder } from '../settle';
import { cardRail } from './rail';
import { takeCardCheck } from './velocity';

const ChargeIdParams = v.object({ id: v.pipe(v.string(), v.uuid()) });
const ChargeListQuery = v.object({
  unresolved: v.optional(v.picklist(['true', 'false'], 'INVALID_VALUE.unresolved')),
});

/** An error body that also names the order (the failure page is /checkoutcomfailed/{orderId}). */
function withOrder(err: HttpError, orderId: string): HttpError {
  Object.assign(err.body, { orderId });
  return err;
}

/** The card was declined (HTTP 402): the order is declined and its unit released. */
const declined = (failure: Failure, orderId: string) =>
  withOrder(apiError(402, failure.code, undefined, failure.message), orderId);

/** The API error a provider refusal (422: token expired or used, invalid CVV…) stands for. */
function refusal(err: unknown): HttpError {
  try {
    providerError(err);
  } catch (mapped) {
    return mapped as HttpError;
  }
}

const expired = (month: number | null, year: number | null, now: Date) =>
  month !== null &&
  year !== null &&
  (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1));

/**
 * Card payments for new editions (docs/checkout.md): create (reserve, then authorize at the
 * provider), read, list the ones waiting for 3-D Secure, sync with the provider, cancel. A charge of
 * someone else is unknown (404).
 */
export function cardChargeRoutes(s: Services): Route[] {
  const provider = (): CardProvider => {
    if (!s.cardProvider) throw apiError(503, 'unavailable', undefined, 'Card payments are not available.');
    return s.cardProvider;
  };

  /** After a settle: the worker starts on an authorized order; a payment to undo is voided now. */
  async function afterSettle(outcome: SettleOutcome, orderId: string) {
    if (outcome.kind !== 'authorized' && outcome.kind !== 'refused' && outcome.kind !== 'compensate') return;
    s.jobs?.nudge();
    if (outcome.kind !== 'authorized' && s.cardProvider) {
      // The fulfil job voids it too if this fails (provider unreachable).
      await voidFailedOrder(s.db, s.cardProvider, orderId, s.clock).catch((err) =>
        s.log.error(`voiding the payment of order ${orderId} failed`, err),
      );
    }
  }

  const readOwnCharge = ownChargeReader(s.db);

  async function answer(chargeId: string, buyerId: string): Promise<CardChargeJson> {
    const json = await readOwnCharge(buyerId, chargeId);
    if (!json) throw notFound();
    return json;
  }

  /** Asks the provider for the charge's payment and applies it (as a webhook would). */
  async function sync(order: OrderRow, paymentId: string, sessionId: string | undefined) {
    let payment: ProviderPayment;
    try {
      payment = await provider().getPayment(sessionId ?? paymentId);
    } catch (err) {
      if (err instanceof ProviderUnavailableError) throw apiError(502, ErrorCode.PAYMENT_PROVIDER);
      if (err instanceof ProviderRefusedError && sessionId)
        throw badRequest(ErrorCode.INVALID_VALUE, 'ckoSessionId');
      throw err instanceof ProviderRefusedError ? apiError(502, ErrorCode.PAYMENT_PROVIDER) : err;
    }
    if (payment.id !== paymentId) throw badRequest(ErrorCode.INVALID_VALUE, 'ckoSessionId');
    if (sessionId) {
      await s.db
        .update(cardCharges)
        .set({ sessionId, updatedAt: s.clock() })
        .where(eq(cardCharges.orderId, order.id));
    }
    await afterSettle(await settle(s.db, order.id, payment, s.clock()), order.id);
  }

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
        const card = provider();
        const user = c.get('user')!;
        const now = s.clock();
        if (!!body.savedBillingInfo === !!body.billingInfo) {
          throw badRequest(
            ErrorCode.INVALID_VALUE,
            'billingInfo',
            'Pay with either a saved card or a new card.',
          );
        }
        let saveCard: SaveCardDetails | null = null;
        // Apple Pay / Google Pay: the provider's token of the wallet's payment, paid like a card's;
        // its billing contact has its own rules and the card is never saved.
        const wallet = body.billingInfo?.wallet ?? null;
        if (body.billingInfo?.wallet) {
          checkWalletBilling(body.billingInfo);
        } else if (body.billingInfo) {
          const { cardToken: _token, save, wallet: _card, ...fields } = body.billingInfo;
          checkBilling(fields);
          if (save) saveCard = fields;
        }
        // A retry of a purchase answers the first one's charge, whatever happened to it since.
        const [repeat] = await s.db
          .select({ charge: cardCharges })
          .from(orders)
          .innerJoin(cardCharges, eq(cardCharges.orderId, orders.id))
          .where(and(eq(orders.buyerId, user.id), eq(orders.idempotencyKey, body.idempotencyKey)));
        if (repeat) return c.json(await answer(repeat.charge.id, user.id), 200);

        const item = await findCheckoutItem(s.db, body.item, now);
        if (!item) throw notFound();
        assertPurchasable(item);
        if (!user.walletAddress) throw badRequest(ErrorCode.WALLET_REQUIRED);
        if (item.price !== body.expectedPrice) throw apiError(409, ErrorCode.PRICE_CHANGED);

        let source: PaymentRequest['source'];
        let billingInfoId: string | null = null;
        if (body.savedBillingInfo) {
          const saved = await ownBillingInfo(s.db, user.id, body.savedBillingInfo.id);
          if (!saved) throw notFound();
          if (!saved.sourceId || saved.status === 'invalid' || saved.status === 'missingSource')
            throw badRequest(ErrorCode.CARD_DECLINED);
          if (saved.scheme && !schemeAccepted(saved.scheme)) throw badRequest(ErrorCode.CARD_TYPE);
          if (expired(saved.expiryMonth, saved.expiryYear, now)) throw badRequest(ErrorCode.CARD_EXPIRED);
          source = { type: 'id', id: saved.sourceId, cvv: body.savedBillingInfo.cvv };
          billingInfoId = saved.id;
        } else {
          source = { type: 'token', token: body.billingInfo!.cardToken };
        }

        // A card check (velocity limit) before anything is held or the provider is asked.
        await takeCardCheck(s.db, now, user.id, s.clientAddress(c));
        const { order, repeated } = await reserve(s.db, {
          buyerId: user.id,
          clientAddress: s.clientAddress(c),
          idempotencyKey: body.idempotencyKey,
          method: 'creditCard',
          item,
          walletAddress: user.walletAddress,
          now,
          wallet,
          rail: cardRail(user.id, now, { billingInfoId, saveCard }),
        });
        const charge = await chargeOfOrder(s.db, order.id);
        // The key of another purchase (by crypto, the balance, …): not this one's.
        if (!charge)
          throw badRequest(
            ErrorCode.INVALID_VALUE,
            'idempotencyKey',
            'This key belongs to another purchase.',
          );
        if (repeated) return c.json(await answer(charge.id, user.id), 200);

        const kind = item.kind === 'pack' ? 'blueprintPack' : 'blueprint';
        const since = order.createdAt.getTime() - 15_000;
        const base = s.config.publicUrl.replace(/\/+$/, '');
        let payment: ProviderPayment;
        try {
          payment = await card.requestPayment({
            source,
            amount: order.amount,
            currency: order.currency,
            reference: order.id,
            capture: false,
            threeDs: true,
            successUrl: `${base}/ordercomplete/${item.id}?e=${kind}&t=${since}&type=creditCard&charge=${charge.id}`,
            failureUrl: `${base}/checkoutcomfailed/${order.id}`,
            customer: { email: user.email, name: [user.firstName, user.lastName].filter(Boolean).join(' ') },
            storeCard: saveCard !== null,
            idempotencyKey: order.id,
            metadata: { orderId: order.id, chargeId: charge.id, ...(wallet ? { wallet } : {}) },
          });
        } catch (err) {
          if (err instanceof ProviderRefusedError) {
            let mapped = refusal(err);
            // A wallet's token the provider refuses (expired, used, unknown) is the wallet's error.
            if (wallet && mapped.body.code === ErrorCode.CARD_TOKEN)
              mapped = badRequest(ErrorCode.CHECKOUT_COM_TOKEN);
            await failOrder(
              s.db,
              order.id,
              'declined',
              failureOf(mapped.body.code, mapped.body.message),
              s.clock(),
            );
            throw withOrder(mapped, order.id);
          }
          // Unreachable or unknown: the payment may exist; a later webhook for it is voided.
          await failOrder(s.db, order.id, 'canceled', failureOf(ErrorCode.PAYMENT_PROVIDER), s.clock(), {
            compensate: true,
          });
          if (err instanceof ProviderUnavailableError) throw apiError(502, ErrorCode.PAYMENT_PROVIDER);
          throw err;
        }
        const outcome = await settle(s.db, order.id, payment, s.clock());
        await afterSettle(outcome, order.id);
        if (outcome.kind === 'refused') {
          throw withOrder(badRequest(outcome.failure.code, undefined, outcome.failure.message), order.id);
        }
        if (outcome.kind === 'failed') throw declined(outcome.failure, order.id);
        return c.json(await answer(charge.id, user.id), 201);
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
      auth: 'required',
      summary: 'One of the caller’s card charges with its order and timeline',
      params: ChargeIdParams,
      response: CardChargeJson,
      responses: { 200: 'CardCharge', 401: 'Not logged in', 404: 'No such charge of the caller' },
      async handler(c, { params }) {
        return c.json(await answer(params.id, c.get('user')!.id));
      },
    }),
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
          await sync(row.order, row.charge.paymentId, body.ckoSessionId);
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
