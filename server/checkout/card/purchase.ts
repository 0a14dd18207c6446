import { and, eq } from 'drizzle-orm';
import type * as v from 'valibot';
import { ErrorCode } from '#domain/errors';
import type { CardChargeJson, CreateCardChargeBody } from '#domain/schemas/checkout';
import { cardCharges, orders } from '../../db/schema';
import type { Services } from '../../deps';
import { apiError, badRequest, type HttpError, notFound, type UserRow } from '../../http';
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
import { assertPurchasable, type CheckoutItemRecord, findCheckoutItem } from '../items';
import { ownChargeReader } from '../order-json';
import { chargeOfOrder, type SaveCardDetails } from '../orders';
import { methodOf } from '../rails';
import { type SettleOutcome, settle, voidFailedOrder } from '../settle';
import { type Started, startPurchase } from '../workflow/start';
import { cardCharge, cardRail } from './rail';
import { takeCardCheck } from './velocity';

type Body = v.InferOutput<typeof CreateCardChargeBody>;

export interface CardPurchase {
  user: UserRow;
  clientAddress: string;
  body: Body;
}

/** The card provider, or 503 when card payments are off. */
export function cardProviderOf(s: Services): CardProvider {
  if (!s.cardProvider) throw apiError(503, 'unavailable', undefined, 'Card payments are not available.');
  return s.cardProvider;
}

/** The caller's charge as the API answers it; 404 for an unknown or someone else's. */
export function cardChargeAnswer(s: Services) {
  const read = ownChargeReader(s.db);
  return async (chargeId: string, buyerId: string): Promise<CardChargeJson> => {
    const json = await read(buyerId, chargeId);
    if (!json) throw notFound();
    return json;
  };
}

/**
 * After a settle: the worker starts on an authorized order; a payment approved for an order that
 * cannot keep it is voided now (the fulfil job voids it too if this fails: provider unreachable).
 */
export async function afterSettle(s: Services, outcome: SettleOutcome, orderId: string) {
  if (outcome.kind !== 'authorized' && outcome.kind !== 'refused' && outcome.kind !== 'compensate') return;
  s.jobs?.nudge();
  if (outcome.kind !== 'authorized' && s.cardProvider) {
    await voidFailedOrder(s.db, s.cardProvider, orderId, s.clock).catch((err) =>
      s.log.error(`voiding the payment of order ${orderId} failed`, err),
    );
  }
}

/** An error body that also names the order (the failure page is /checkoutcomfailed/{orderId}). */
function withOrder(err: HttpError, orderId: string): HttpError {
  Object.assign(err.body, { orderId });
  return err;
}

/** The API error a provider refusal (422: token expired or used, invalid CVV…) stands for. */
function refusal(err: unknown): HttpError {
  try {
    providerError(err);
  } catch (mapped) {
    return mapped as HttpError;
  }
}

const cardExpired = (month: number | null, year: number | null, now: Date) =>
  month !== null &&
  year !== null &&
  (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1));

interface CheckedCard {
  item: CheckoutItemRecord;
  walletAddress: string;
  source: PaymentRequest['source'];
  billingInfoId: string | null;
}

/** The saved card the buyer pays with: theirs, usable, of a brand taken and not past its expiry. */
async function savedSource(
  s: Services,
  userId: string,
  saved: NonNullable<Body['savedBillingInfo']>,
  now: Date,
) {
  const row = await ownBillingInfo(s.db, userId, saved.id);
  if (!row) throw notFound();
  if (!row.sourceId || row.status === 'invalid' || row.status === 'missingSource')
    throw badRequest(ErrorCode.CARD_DECLINED);
  if (row.scheme && !schemeAccepted(row.scheme)) throw badRequest(ErrorCode.CARD_TYPE);
  if (cardExpired(row.expiryMonth, row.expiryYear, now)) throw badRequest(ErrorCode.CARD_EXPIRED);
  return { source: { type: 'id' as const, id: row.sourceId, cvv: saved.cvv }, billingInfoId: row.id };
}

/**
 * A card purchase (POST checkout-com-charges): the purchase workflow (../workflow/start.ts) with the
 * card's steps. Answers the charge, and whether it is an earlier request's (same idempotency key).
 */
export function startCardPurchase(s: Services, p: CardPurchase): Promise<Started<CardChargeJson>> {
  const { user, body } = p;
  const card = cardProviderOf(s);
  const now = s.clock();
  const answer = cardChargeAnswer(s);
  // Apple Pay / Google Pay: the provider's token of the wallet's payment, paid like a card's;
  // its billing contact has its own rules and the card is never saved.
  const wallet = body.billingInfo?.wallet ?? null;
  let saveCard: SaveCardDetails | null = null;

  return startPurchase(s.db, {
    rail: cardRail,
    validate() {
      if (!!body.savedBillingInfo === !!body.billingInfo)
        throw badRequest(
          ErrorCode.INVALID_VALUE,
          'billingInfo',
          'Pay with either a saved card or a new card.',
        );
      if (body.billingInfo?.wallet) checkWalletBilling(body.billingInfo);
      else if (body.billingInfo) {
        const { cardToken: _token, save, wallet: _card, ...fields } = body.billingInfo;
        checkBilling(fields);
        if (save) saveCard = fields;
      }
    },
    async dedupe() {
      // A retry of a purchase answers the first one's charge, whatever happened to it since.
      const [repeat] = await s.db
        .select({ id: cardCharges.id })
        .from(orders)
        .innerJoin(cardCharges, eq(cardCharges.orderId, orders.id))
        .where(and(eq(orders.buyerId, user.id), eq(orders.idempotencyKey, body.idempotencyKey)));
      return repeat ? answer(repeat.id, user.id) : undefined;
    },
    async check(): Promise<CheckedCard> {
      const item = await findCheckoutItem(s.db, body.item, now);
      if (!item) throw notFound();
      assertPurchasable(item);
      if (!user.walletAddress) throw badRequest(ErrorCode.WALLET_REQUIRED);
      if (item.price !== body.expectedPrice) throw apiError(409, ErrorCode.PRICE_CHANGED);
      const { source, billingInfoId } = body.savedBillingInfo
        ? await savedSource(s, user.id, body.savedBillingInfo, now)
        : { source: { type: 'token' as const, token: body.billingInfo!.cardToken }, billingInfoId: null };
      // A card check (velocity limit) before anything is held or the provider is asked.
      await takeCardCheck(s.db, now, user.id, p.clientAddress);
      return { item, walletAddress: user.walletAddress, source, billingInfoId };
    },
    reservation: (checked) => ({
      buyerId: user.id,
      clientAddress: p.clientAddress,
      idempotencyKey: body.idempotencyKey,
      walletAddress: checked.walletAddress,
      now,
      wallet,
      charge: cardCharge(user.id, now, { billingInfoId: checked.billingInfoId, saveCard }),
    }),
    async repeated(order) {
      const charge = await chargeOfOrder(s.db, order.id);
      // The key of another purchase (by crypto, the balance, …): not this one's.
      if (!charge)
        throw badRequest(ErrorCode.INVALID_VALUE, 'idempotencyKey', 'This key belongs to another purchase.');
      return answer(charge.id, user.id);
    },
    async authorize(order, checked) {
      const charge = (await chargeOfOrder(s.db, order.id))!;
      const kind = checked.item.kind === 'pack' ? 'blueprintPack' : 'blueprint';
      const since = order.createdAt.getTime() - 15_000;
      const base = s.config.publicUrl.replace(/\/+$/, '');
      const type = methodOf(cardRail);
      return card.requestPayment({
        source: checked.source,
        amount: order.amount,
        currency: order.currency,
        reference: order.id,
        capture: false,
        threeDs: true,
        successUrl: `${base}/ordercomplete/${checked.item.id}?e=${kind}&t=${since}&type=${type}&charge=${charge.id}`,
        failureUrl: `${base}/checkoutcomfailed/${order.id}`,
        customer: { email: user.email, name: [user.firstName, user.lastName].filter(Boolean).join(' ') },
        storeCard: saveCard !== null,
        idempotencyKey: order.id,
        metadata: { orderId: order.id, chargeId: charge.id, ...(wallet ? { wallet } : {}) },
      });
    },
    async release(order, err) {
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
        return withOrder(mapped, order.id);
      }
      // Unreachable or unknown: the payment may exist; a later webhook for it is voided.
      await failOrder(s.db, order.id, 'canceled', failureOf(ErrorCode.PAYMENT_PROVIDER), s.clock(), {
        compensate: true,
      });
      return err instanceof ProviderUnavailableError ? apiError(502, ErrorCode.PAYMENT_PROVIDER) : err;
    },
    settle: (order, payment: ProviderPayment) => settle(s.db, order.id, payment, s.clock()),
    compensate: (order, outcome) => afterSettle(s, outcome, order.id),
    async answer(order, outcome) {
      if (outcome.kind === 'refused')
        throw withOrder(badRequest(outcome.failure.code, undefined, outcome.failure.message), order.id);
      if (outcome.kind === 'failed') throw declined(outcome.failure, order.id);
      const charge = (await chargeOfOrder(s.db, order.id))!;
      return answer(charge.id, user.id);
    },
  });
}

/** The card was declined (HTTP 402): the order is declined and its unit released. */
const declined = (failure: Failure, orderId: string) =>
  withOrder(apiError(402, failure.code, undefined, failure.message), orderId);
