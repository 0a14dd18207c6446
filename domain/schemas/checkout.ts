import * as v from 'valibot';
import { lengthKey } from '../validation';

/**
 * Checkout for new editions: card charges, saved cards (billing info), free claims and orders.
 * Request schemas are shared by the server (validation) and the client (forms); the JSON types are
 * what the server answers. Money is integer cents.
 *
 * Error codes (domain/errorCodes.ts):
 * - SOLD_OUT (no edition left to reserve), PRICE_CHANGED (expectedPrice differs from the price now),
 *   NOT_PURCHASABLE (the item is not on sale), WALLET_REQUIRED (the buyer has no wallet),
 *   CHARGE_PENDING (the buyer already has an unresolved card charge; its id is in `chargeId`);
 * - CARD_DECLINED ("Purchase Failed", card not charged), CARD_INSUFFICIENT_FUNDS, CARD_EXPIRED,
 *   CARD_TYPE (only VISA, MASTERCARD, DISCOVER), CARD_CVV, CARD_DUPLICATE (same last four saved),
 *   CARD_TOKEN (the card token expired or was used), INVALID_ADDRESS, PHONE_COUNTRY, PHONE_SHORT,
 *   PAYMENT_PROVIDER (the card processor could not be reached), CHARGE_NOT_CANCELLABLE;
 * - Apple Pay and Google Pay (billingInfo.wallet): APPLE_PAY_ADDRESS (the wallet's billing contact
 *   lacks a field its wallet needs: walletContactGap in billing.ts), CHECKOUT_COM_TOKEN (the wallet's token was
 *   refused), APPLE_PAY_CANCELED (the buyer closed the sheet: client side), PROCESSING_ERROR (the
 *   merchant session could not be made);
 * - CLAIM_BLUEPRINT (a free claim failed: not free, already claimed, sold out).
 */

const uuid = (field: string) => v.pipe(v.string(`INVALID_VALUE.${field}`), v.uuid(`INVALID_VALUE.${field}`));
const text = (field: string, max: number, missing = `INVALID_VALUE.${field}`) =>
  v.pipe(
    v.string(missing),
    v.trim(),
    v.nonEmpty(missing),
    v.maxLength(max, lengthKey(field, { max })),
    v.check((s) => !s.includes('\u0000'), `INVALID_VALUE.${field}`),
  );
const optionalText = (field: string, max: number) =>
  v.optional(
    v.pipe(
      v.string(`INVALID_VALUE.${field}`),
      v.trim(),
      v.maxLength(max, lengthKey(field, { max })),
      v.check((s) => !s.includes('\u0000'), `INVALID_VALUE.${field}`),
    ),
  );

/** What is bought: a blueprint or a pack (resale listings are bought with the balance flow). */
export const checkoutItemKinds = ['blueprint', 'pack'] as const;
export type CheckoutItemKind = (typeof checkoutItemKinds)[number];
export const CheckoutItem = v.object({
  kind: v.picklist(checkoutItemKinds, 'INVALID_VALUE.item'),
  id: uuid('item'),
});
export type CheckoutItem = v.InferOutput<typeof CheckoutItem>;

/**
 * Billing details: firstName, addressLine1, city, state, country, phone and zip code required;
 * lastName and addressLine2 optional. Field rules beyond shape (phone valid for the country, US and
 * Canadian states, the 27 countries) live in domain/billing.ts, which both sides call.
 */
export const BillingFields = {
  firstName: text('firstName', 100, 'INVALID_VALUE.firstName'),
  lastName: optionalText('lastName', 100),
  addressLine1: text('addressLine1', 200),
  addressLine2: optionalText('addressLine2', 200),
  city: text('city', 100),
  state: text('state', 100),
  /** ISO 3166-1 alpha-2. */
  country: v.pipe(v.string('INVALID_VALUE.country'), v.regex(/^[A-Z]{2}$/, 'INVALID_VALUE.country')),
  zipCode: text('zipCode', 20),
  phoneNumber: v.object({
    /** The country calling code without "+", e.g. "1", "44". */
    countryCode: v.pipe(
      v.string('INVALID_VALUE.phoneNumber'),
      v.regex(/^\d{1,4}$/, 'INVALID_VALUE.phoneNumber'),
    ),
    number: v.pipe(
      v.string('INVALID_VALUE.phoneNumber'),
      v.regex(/^[\d ()-]{1,20}$/, 'INVALID_VALUE.phoneNumber'),
    ),
  }),
};

/** POST billing-info: a card tokenized in the browser (tok_…) with its billing details. */
export const CreateBillingInfoBody = v.object({
  cardToken: v.pipe(v.string('CARD_TOKEN'), v.regex(/^tok_\w{26}$/, 'CARD_TOKEN')),
  ...BillingFields,
});
export type CreateBillingInfoBody = v.InferOutput<typeof CreateBillingInfoBody>;

export const billingInfoStatuses = ['missingSource', 'unverified', 'verified', 'invalid'] as const;

/** The mobile wallets paid through the card provider (its `applepay` / `googlepay` tokens). */
export const mobileWallets = ['applepay', 'googlepay'] as const;
export type MobileWallet = (typeof mobileWallets)[number];

const walletAddressText = (max: number) =>
  v.optional(
    v.pipe(
      v.string('APPLE_PAY_ADDRESS'),
      v.trim(),
      v.maxLength(max, 'APPLE_PAY_ADDRESS'),
      v.check((s) => !s.includes('\u0000'), 'APPLE_PAY_ADDRESS'),
    ),
  );

/**
 * billingInfo of a payment with Apple Pay or Google Pay: the token the provider made of the
 * wallet's payment (`POST {apiUrl}/tokens { type: 'applepay' | 'googlepay', token_data }`) and the
 * billing contact the wallet shared (Apple's `billingContact` with the phone of its `shippingContact`,
 * Google's `billingAddress`), mapped to our fields. Which fields are required depends on the wallet
 * (walletContactGap in domain/billing.ts, checked by the server: APPLE_PAY_ADDRESS): Apple Pay
 * the phone with its country calling code, address line 1, postal code, city, state and country;
 * Google Pay address line 1, city, postal code and country. A wallet card is never saved.
 */
export const WalletBillingInfo = v.object({
  wallet: v.picklist(mobileWallets, 'INVALID_VALUE.wallet'),
  cardToken: v.pipe(v.string('CHECKOUT_COM_TOKEN'), v.regex(/^tok_\w{26}$/, 'CHECKOUT_COM_TOKEN')),
  firstName: optionalText('firstName', 100),
  lastName: optionalText('lastName', 100),
  addressLine1: walletAddressText(200),
  addressLine2: optionalText('addressLine2', 200),
  city: walletAddressText(100),
  state: walletAddressText(100),
  /** ISO 3166-1 alpha-2 (Apple's countryCode, Google's countryCode). */
  country: v.optional(
    v.pipe(
      v.string('APPLE_PAY_ADDRESS'),
      v.trim(),
      v.toUpperCase(),
      v.regex(/^[A-Z]{2}$/, 'APPLE_PAY_ADDRESS'),
    ),
  ),
  zipCode: walletAddressText(20),
  /**
   * As the wallet gives it ("+1 415-555-0123"); Apple Pay's must tell its country calling code
   * (international, or national for the country), and is not otherwise checked against the country.
   */
  phoneNumber: optionalText('phoneNumber', 40),
});
export type WalletBillingInfo = v.InferOutput<typeof WalletBillingInfo>;

/**
 * POST checkout-com-charges: pay for an item by card. Exactly one of `savedBillingInfo` (a saved
 * card and its CVV) or `billingInfo` (a new card token with billing details; `save` keeps it; with
 * `wallet`, a token of an Apple Pay or Google Pay payment: WalletBillingInfo).
 * `idempotencyKey` is made by the client once per purchase attempt: a retry with it returns the
 * same charge. `expectedPrice` is the price the buyer saw (PRICE_CHANGED when it differs).
 */
export const CreateCardChargeBody = v.object({
  item: CheckoutItem,
  expectedPrice: v.pipe(
    v.number('INVALID_VALUE.expectedPrice'),
    v.integer('INVALID_VALUE.expectedPrice'),
    v.minValue(0, 'INVALID_VALUE.expectedPrice'),
  ),
  idempotencyKey: v.pipe(
    v.string('INVALID_VALUE.idempotencyKey'),
    v.regex(/^[\w-]{8,64}$/, 'INVALID_VALUE.idempotencyKey'),
  ),
  savedBillingInfo: v.optional(
    v.object({
      id: uuid('savedBillingInfo'),
      cvv: v.pipe(v.string('CARD_CVV'), v.regex(/^\d{3,4}$/, 'CARD_CVV')),
    }),
  ),
  billingInfo: v.optional(
    v.variant(
      'wallet',
      [
        v.object({
          wallet: v.optional(v.undefined('INVALID_VALUE.wallet')),
          ...CreateBillingInfoBody.entries,
          save: v.optional(v.boolean('INVALID_VALUE.save'), false),
        }),
        WalletBillingInfo,
      ],
      'INVALID_VALUE.wallet',
    ),
  ),
});
export type CreateCardChargeBody = v.InferOutput<typeof CreateCardChargeBody>;

/** PATCH checkout-com-charges/{id}/actions/sync: the 3-D Secure session the buyer came back with. */
export const SyncCardChargeBody = v.object({
  ckoSessionId: v.optional(
    v.pipe(v.string('INVALID_VALUE.ckoSessionId'), v.regex(/^sid_\w{26}$/, 'INVALID_VALUE.ckoSessionId')),
  ),
});

/** Card charge statuses, as the provider spells them plus the mint statuses. */
export const cardChargeStatuses = [
  'Pending',
  'Authorized',
  'Card Verified',
  'Declined',
  'Captured',
  'Voided',
  'Refunded',
  'Canceled',
  'Expired',
  'MINTING',
  'MINTED',
  'MINT_SAVE_FAILED',
  'NFT_SYNC_FAILED',
] as const;
export type CardChargeStatus = (typeof cardChargeStatuses)[number];

export const orderStatuses = [
  'created',
  'authorized',
  'captured',
  'minting',
  'minted',
  'declined',
  'canceled',
  'expired',
  'voided',
  'refunded',
  'review',
] as const;
export type OrderStatus = (typeof orderStatuses)[number];
/**
 * Order statuses after which no edition will be minted: nothing charged, the payment undone, or a
 * payment that did not match the order held for review (an operator gives it back).
 */
export const failedOrderStatuses: readonly OrderStatus[] = [
  'declined',
  'canceled',
  'expired',
  'voided',
  'refunded',
  'review',
];
export const orderFailed = (status: OrderStatus) => failedOrderStatuses.includes(status);

/** POST free-blueprint-claims. */
export const CreateFreeClaimBody = v.object({ blueprintId: uuid('blueprintId') });
/** GET free-blueprint-claims: the caller's claims, optionally of one blueprint. */
export const FreeClaimsQuery = v.object({ blueprintId: v.optional(uuid('blueprintId')) });

/** Answers of these routes: their schemas are in domain/responses/checkout. */
export type {
  BillingInfoJson,
  CardChargeJson,
  FreeClaimJson,
  OrderEventJson,
  OrderJson,
  PaymentsConfigJson,
} from '../responses/checkout';
