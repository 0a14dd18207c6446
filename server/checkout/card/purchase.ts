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
import { type Failure, failureOf } from '../failures';
import { assertPurchasable, type CheckoutItemRecord, findCheckoutItem } from '../items';
import { ownChargeReader } from '../order-json';
import { chargeOfOrder, type OrderRow, type SaveCardDetails } from '../orders';
import { methodOf } from '../rails';
import { type Started, startPurchase } from '../workflow/start';
import { failOrder } from './failures';
import { cardCharge, cardRail } from './rail';
import { type SettleOutcome, settle, voidFailedOrder } from './settle';
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

/** Asks the provider for the charge's payment and applies it (as a webhook would). */
export async function syncCardCharge(
  s: Services,
  order: OrderRow,
  paymentId: string,
  sessionId: string | undefined,
) {
  let payment: ProviderPayment;
  try {
    payment = await cardProviderOf(s).getPayment(sessionId ?? paymentId);
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
  await afterSettle(s, await settle(s.db, order.id, payment, s.clock()), order.id);
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

/** What the card's steps share: the request, the clock's reading, the card to save. */
interface CardRun extends CardPurchase {
  s: Services;
  card: CardProvider;
  now: Date;
  answer: ReturnType<typeof cardChargeAnswer>;
  /** Apple Pay / Google Pay: the provider's token of the wallet's payment, paid like a card's. */
  wallet: 'applepay' | 'googlepay' | null;
  /** The new card's billing details, when the buyer asked to save it. */
  saveCard: SaveCardDetails | null;
}

/** validate: a saved card or a new one; the billing rules (a wallet's contact has its own; never saved). */
function validate(run: CardRun) {
  const { body } = run;
  if (!!body.savedBillingInfo === !!body.billingInfo)
    throw badRequest(ErrorCode.INVALID_VALUE, 'billingInfo', 'Pay with either a saved card or a new card.');
  if (body.billingInfo?.wallet) checkWalletBilling(body.billingInfo);
  else if (body.billingInfo) {
    const { cardToken: _token, save, wallet: _card, ...fields } = body.billingInfo;
    checkBilling(fields);
    if (save) run.saveCard = fields;
  }
}

/** dedupe: a retry of a purchase answers the first one's charge, whatever happened to it since. */
async function dedupe(run: CardRun) {
  const [repeat] = await run.s.db
    .select({ id: cardCharges.id })
    .from(orders)
    .innerJoin(cardCharges, eq(cardCharges.orderId, orders.id))
    .where(and(eq(orders.buyerId, run.user.id), eq(orders.idempotencyKey, run.body.idempotencyKey)));
  return repeat ? run.answer(repeat.id, run.user.id) : undefined;
}

/** check: the item, its price and the buyer's wallet; the card paid with; the card-check limit. */
async function check(run: CardRun): Promise<CheckedCard> {
  const { s, user, body, now } = run;
  const item = await findCheckoutItem(s.db, body.item, now);
  if (!item) throw notFound();
  assertPurchasable(item);
  if (!user.walletAddress) throw badRequest(ErrorCode.WALLET_REQUIRED);
  if (item.price !== body.expectedPrice) throw apiError(409, ErrorCode.PRICE_CHANGED);
  const { source, billingInfoId } = body.savedBillingInfo
    ? await savedSource(s, user.id, body.savedBillingInfo, now)
    : { source: { type: 'token' as const, token: body.billingInfo!.cardToken }, billingInfoId: null };
  // A card check (velocity limit) before anything is held or the provider is asked.
  await takeCardCheck(s.db, now, user.id, run.clientAddress);
  return { item, walletAddress: user.walletAddress, source, billingInfoId };
}

/** A repeat found by the reservation: this key's card charge (none: another rail's purchase, 400). */
async function repeated(run: CardRun, order: OrderRow) {
  const charge = await chargeOfOrder(run.s.db, order.id);
  if (!charge)
    throw badRequest(ErrorCode.INVALID_VALUE, 'idempotencyKey', 'This key belongs to another purchase.');
  return run.answer(charge.id, run.user.id);
}

/** authorize: the provider is asked for the price, not captured, 3-D Secure on, keyed by the order. */
async function authorize(run: CardRun, order: OrderRow, checked: CheckedCard) {
  const { s, user, wallet } = run;
  const charge = (await chargeOfOrder(s.db, order.id))!;
  const kind = checked.item.kind === 'pack' ? 'blueprintPack' : 'blueprint';
  const since = order.createdAt.getTime() - 15_000;
  const base = s.config.publicUrl.replace(/\/+$/, '');
  const type = methodOf(cardRail);
  return run.card.requestPayment({
    source: checked.source,
    amount: order.amount,
    currency: order.currency,
    reference: order.id,
    capture: false,
    threeDs: true,
    successUrl: `${base}/ordercomplete/${checked.item.id}?e=${kind}&t=${since}&type=${type}&charge=${charge.id}`,
    failureUrl: `${base}/checkoutcomfailed/${order.id}`,
    customer: { email: user.email, name: [user.firstName, user.lastName].filter(Boolean).join(' ') },
    storeCard: run.saveCard !== null,
    idempotencyKey: order.id,
    metadata: { orderId: order.id, chargeId: charge.id, ...(wallet ? { wallet } : {}) },
  });
}

/**
 * release (reserve's compensation when authorize fails): a refusal declines the order with its
 * error; an unreachable or unknown provider cancels it, and a payment that exists after all is
 * voided when its webhook comes. The unit is released either way.
 */
async function release(run: CardRun, order: OrderRow, err: unknown) {
  const { s } = run;
  if (err instanceof ProviderRefusedError) {
    let mapped = refusal(err);
    // A wallet's token the provider refuses (expired, used, unknown) is the wallet's error.
    if (run.wallet && mapped.body.code === ErrorCode.CARD_TOKEN)
      mapped = badRequest(ErrorCode.CHECKOUT_COM_TOKEN);
    await failOrder(s.db, order.id, 'declined', failureOf(mapped.body.code, mapped.body.message), s.clock());
    return withOrder(mapped, order.id);
  }
  await failOrder(s.db, order.id, 'canceled', failureOf(ErrorCode.PAYMENT_PROVIDER), s.clock(), {
    compensate: true,
  });
  return err instanceof ProviderUnavailableError ? apiError(502, ErrorCode.PAYMENT_PROVIDER) : err;
}

/** The answer: the charge (201), or the refusal (400) or decline (402) naming the order. */
async function answer(run: CardRun, order: OrderRow, outcome: SettleOutcome) {
  if (outcome.kind === 'refused')
    throw withOrder(badRequest(outcome.failure.code, undefined, outcome.failure.message), order.id);
  if (outcome.kind === 'failed') throw declined(outcome.failure, order.id);
  const charge = (await chargeOfOrder(run.s.db, order.id))!;
  return run.answer(charge.id, run.user.id);
}

/**
 * A card purchase (POST checkout-com-charges): the purchase workflow (../workflow/start.ts) with the
 * card's steps. Answers the charge, and whether it is an earlier request's (same idempotency key).
 */
export function startCardPurchase(s: Services, p: CardPurchase): Promise<Started<CardChargeJson>> {
  const run: CardRun = {
    ...p,
    s,
    card: cardProviderOf(s),
    now: s.clock(),
    answer: cardChargeAnswer(s),
    wallet: p.body.billingInfo?.wallet ?? null,
    saveCard: null,
  };
  return startPurchase(s.db, {
    rail: cardRail,
    validate: () => validate(run),
    dedupe: () => dedupe(run),
    check: () => check(run),
    reservation: (checked) => ({
      buyerId: run.user.id,
      clientAddress: run.clientAddress,
      idempotencyKey: run.body.idempotencyKey,
      walletAddress: checked.walletAddress,
      now: run.now,
      wallet: run.wallet,
      charge: cardCharge(run.user.id, run.now, {
        billingInfoId: checked.billingInfoId,
        saveCard: run.saveCard,
      }),
    }),
    repeated: (order) => repeated(run, order),
    authorize: (order, checked) => authorize(run, order, checked),
    release: (order, err) => release(run, order, err),
    settle: (order, payment: ProviderPayment) => settle(s.db, order.id, payment, s.clock()),
    compensate: (order, outcome) => afterSettle(s, outcome, order.id),
    answer: (order, outcome) => answer(run, order, outcome),
  });
}

/** The card was declined (HTTP 402): the order is declined and its unit released. */
const declined = (failure: Failure, orderId: string) =>
  withOrder(apiError(402, failure.code, undefined, failure.message), orderId);
