import { and, desc, eq } from 'drizzle-orm';
import { type BillingDetails, validateBilling, walletContactGap } from '#domain/billing';
import { ErrorCode } from '#domain/errors';
import type { BillingInfoJson, CreateBillingInfoBody, WalletBillingInfo } from '#domain/schemas/checkout';
import { type Executor, uniqueViolation } from '../../db';
import { billingInfos } from '../../db/schema';
import { apiError, badRequest, HttpError } from '../../http';
import {
  type CardProvider,
  type ProviderPayment,
  ProviderRefusedError,
  ProviderUnavailableError,
} from '../../payments/provider';

/**
 * Saved cards. The card number never reaches the server: the browser tokenizes it at the card
 * provider, and the server keeps the provider's reusable card source (src_…) with the last four
 * digits, brand and expiry it reports, next to the billing details. Only VISA, MASTERCARD and
 * DISCOVER are accepted; a user cannot save two cards with the same last four digits.
 */

export type BillingInfoRow = typeof billingInfos.$inferSelect;
export const ACCEPTED_SCHEMES = ['VISA', 'MASTERCARD', 'DISCOVER'] as const;

export const schemeAccepted = (scheme: string | null | undefined) =>
  !!scheme && (ACCEPTED_SCHEMES as readonly string[]).includes(scheme.toUpperCase());

export function billingInfoJson(row: BillingInfoRow): BillingInfoJson {
  return {
    id: row.id,
    lastFourDigits: row.lastFourDigits,
    scheme: row.scheme,
    expiryMonth: row.expiryMonth,
    expiryYear: row.expiryYear,
    firstName: row.firstName,
    lastName: row.lastName,
    addressLine1: row.addressLine1,
    addressLine2: row.addressLine2,
    city: row.city,
    state: row.state,
    country: row.country,
    zipCode: row.zipCode,
    phoneNumber: { countryCode: row.phoneCountryCode, number: row.phoneNumber },
    billingAddress: {
      addressLine1: row.addressLine1,
      addressLine2: row.addressLine2,
      zip: row.zipCode,
      city: row.city,
      state: row.state,
      country: row.country,
    },
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

export const listBillingInfos = (db: Executor, userId: string) =>
  db.select().from(billingInfos).where(eq(billingInfos.userId, userId)).orderBy(desc(billingInfos.createdAt));

/** The caller's saved card, or undefined (also for someone else's). */
export async function ownBillingInfo(db: Executor, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(billingInfos)
    .where(and(eq(billingInfos.id, id), eq(billingInfos.userId, userId)));
  return row;
}

/**
 * The billing rules the form applies, checked again here: the country is one of ours, US and
 * Canadian states are known, the phone has at least 6 digits and is valid for the country. The
 * first failing field is the answer (400).
 */
export function checkBilling(details: BillingDetails): void {
  const errors = validateBilling(details);
  const first = Object.values(errors)[0];
  if (first) throw new HttpError(400, first);
}

/**
 * The billing contact an Apple Pay or Google Pay payment shared, by the wallet's rule
 * (walletContactGap): Apple Pay needs the phone with its country calling code, address line 1,
 * postal code, city, state and country; Google Pay address line 1, city, postal code and country;
 * the country is one we take cards from. Else APPLE_PAY_ADDRESS naming the first missing field.
 */
export function checkWalletBilling(contact: WalletBillingInfo): void {
  const gap = walletContactGap(contact.wallet, contact);
  if (gap) throw badRequest(ErrorCode.APPLE_PAY_ADDRESS, gap);
}

/**
 * Provider refusals of a card token or source, as the API's error codes. A refusal of the card's
 * own details (its number, expiry or CVV) is CARD_DECLINED whichever it was: telling them apart
 * would help someone testing stolen cards guess the missing field. Only what the card form must
 * say is kept apart: an expired or used token (enter the card again) and an invalid address.
 */
export function providerError(err: unknown): never {
  if (err instanceof ProviderRefusedError) {
    const codes = err.errorCodes.join(' ');
    if (/token_(expired|used|invalid)/.test(codes)) throw badRequest(ErrorCode.CARD_TOKEN);
    if (/address|zip/.test(codes)) throw badRequest(ErrorCode.INVALID_ADDRESS);
    throw badRequest(ErrorCode.CARD_DECLINED);
  }
  if (err instanceof ProviderUnavailableError) throw apiError(502, ErrorCode.PAYMENT_PROVIDER);
  throw err;
}

/**
 * A declined card answer's code: 20051 insufficient funds (the buyer is offered a crypto top-up
 * instead), anything else CARD_DECLINED ("Purchase Failed"): an expired card (20054) or a wrong CVV
 * (20087, 20082) is not told apart from any other decline (see providerError).
 */
export function declineCode(responseCode: string | null | undefined): string {
  return responseCode === '20051' ? ErrorCode.CARD_INSUFFICIENT_FUNDS : ErrorCode.CARD_DECLINED;
}

/**
 * Keeps the card a payment used (its source) with the billing details. CARD_TYPE for a brand we do
 * not take, CARD_DUPLICATE when the user has a card with the same last four digits.
 */
export async function saveCard(
  db: Executor,
  userId: string,
  fields: Omit<CreateBillingInfoBody, 'cardToken'>,
  payment: ProviderPayment,
): Promise<BillingInfoRow> {
  const source = payment.source;
  if (!source?.id || !source.last4) throw badRequest(ErrorCode.CARD_DECLINED);
  if (!schemeAccepted(source.scheme)) throw badRequest(ErrorCode.CARD_TYPE);
  try {
    const [row] = await db
      .insert(billingInfos)
      .values({
        userId,
        sourceId: source.id,
        lastFourDigits: source.last4,
        scheme: source.scheme?.toUpperCase() ?? null,
        expiryMonth: source.expiryMonth,
        expiryYear: source.expiryYear,
        firstName: fields.firstName,
        lastName: fields.lastName || null,
        addressLine1: fields.addressLine1,
        addressLine2: fields.addressLine2 || null,
        city: fields.city,
        state: fields.state,
        country: fields.country,
        zipCode: fields.zipCode,
        phoneCountryCode: fields.phoneNumber.countryCode,
        phoneNumber: fields.phoneNumber.number,
        status: 'verified',
      })
      .returning();
    return row!;
  } catch (err) {
    if (uniqueViolation(err) === 'billing_infos_last4_unique') throw badRequest(ErrorCode.CARD_DUPLICATE);
    throw err;
  }
}

/**
 * Verifies a new card token at the provider with a zero-amount payment (Card Verified), which also
 * turns it into a reusable source, and saves it.
 */
export async function verifyAndSaveCard(
  db: Executor,
  provider: CardProvider,
  user: { id: string; email: string },
  body: CreateBillingInfoBody,
  publicUrl: string,
  /** Counts the card check (the velocity limit) once the details pass, before the provider is asked. */
  countCheck: () => Promise<void>,
): Promise<BillingInfoRow> {
  const { cardToken, ...fields } = body;
  checkBilling(fields);
  await countCheck();
  const reference = `card-${crypto.randomUUID()}`;
  let payment: ProviderPayment;
  try {
    payment = await provider.requestPayment({
      source: { type: 'token', token: cardToken },
      amount: 0,
      currency: 'USD',
      reference,
      capture: false,
      threeDs: false,
      successUrl: `${publicUrl}/settings/payment`,
      failureUrl: `${publicUrl}/settings/payment`,
      customer: { email: user.email, name: [fields.firstName, fields.lastName].filter(Boolean).join(' ') },
      storeCard: true,
      idempotencyKey: reference,
    });
  } catch (err) {
    providerError(err);
  }
  if (!payment.approved) throw badRequest(declineCode(payment.responseCode));
  return saveCard(db, user.id, fields, payment);
}
