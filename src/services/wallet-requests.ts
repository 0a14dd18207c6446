import type { WalletBilling } from '#domain/ports/checkout';
import type { PaymentsConfigJson } from '#domain/schemas/checkout';

/**
 * The browser wallet APIs as far as the checkout uses them (Safari's `ApplePaySession`, Google's
 * `PaymentsClient`), the requests it makes of them, and the billing details read from their answers.
 */

export interface ApplePayContact {
  givenName?: string;
  familyName?: string;
  addressLines?: string[];
  locality?: string;
  administrativeArea?: string;
  postalCode?: string;
  countryCode?: string;
  phoneNumber?: string;
}
export interface ApplePaySessionLike extends EventTarget {
  begin(): void;
  abort(): void;
  completeMerchantValidation(session: unknown): void;
  completePayment(status: number): void;
  onvalidatemerchant: ((event: { validationURL: string }) => void) | null;
}
interface ApplePaySessionClass {
  new (version: number, request: unknown): ApplePaySessionLike;
  canMakePayments(): boolean;
  STATUS_SUCCESS?: number;
  STATUS_FAILURE?: number;
}
export interface GoogleAddress {
  name?: string;
  address1?: string;
  address2?: string;
  locality?: string;
  administrativeArea?: string;
  postalCode?: string;
  countryCode?: string;
  phoneNumber?: string;
}
export interface GooglePaymentsClient {
  isReadyToPay(request: unknown): Promise<{ result: boolean }>;
  loadPaymentData(request: unknown): Promise<{
    paymentMethodData: {
      tokenizationData: { type: string; token: string };
      info?: { billingAddress?: GoogleAddress };
    };
  }>;
}
declare global {
  interface Window {
    ApplePaySession?: ApplePaySessionClass;
    google?: {
      payments: { api: { PaymentsClient: new (options: { environment: string }) => GooglePaymentsClient } };
    };
  }
}

/** The networks each wallet offers (Apple's names are camelCase, Google's upper case). */
export const APPLE_PAY_NETWORKS = ['visa', 'masterCard', 'amex', 'discover'];
export const GOOGLE_PAY_NETWORKS = ['AMEX', 'DISCOVER', 'JCB', 'MASTERCARD', 'VISA'];

const amount = (cents: number) => (cents / 100).toFixed(2);

/**
 * Apple's payment request for the price (merchant in the US, USD). A billing contact can only ask for
 * the postal address (the name comes with it); the phone is a contact field of the shipping contact,
 * which, asked for the phone alone, carries no address.
 */
export function applePayRequest(price: number, label: string) {
  return {
    countryCode: 'US',
    currencyCode: 'USD',
    supportedNetworks: APPLE_PAY_NETWORKS,
    merchantCapabilities: ['supports3DS'],
    requiredBillingContactFields: ['postalAddress'],
    requiredShippingContactFields: ['phone'],
    total: { label, amount: amount(price), type: 'final' },
  };
}

/**
 * Google's IsReadyToPayRequest: the API version and the same allowed payment methods as the payment
 * request, so the answer is about the cards this checkout would take.
 */
export function googlePayReadyRequest(google: NonNullable<PaymentsConfigJson['googlePay']>) {
  const { apiVersion, apiVersionMinor, allowedPaymentMethods } = googlePayRequest(0, google);
  return { apiVersion, apiVersionMinor, allowedPaymentMethods };
}

/** Google's payment data request for the price, tokenized for the card provider. */
export function googlePayRequest(price: number, google: NonNullable<PaymentsConfigJson['googlePay']>) {
  return {
    apiVersion: 2,
    apiVersionMinor: 0,
    allowedPaymentMethods: [
      {
        type: 'CARD',
        parameters: {
          allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'],
          allowedCardNetworks: GOOGLE_PAY_NETWORKS,
          billingAddressRequired: true,
          billingAddressParameters: { format: 'FULL', phoneNumberRequired: true },
        },
        tokenizationSpecification: {
          type: 'PAYMENT_GATEWAY',
          parameters: { gateway: 'checkoutltd', gatewayMerchantId: google.gatewayMerchantId },
        },
      },
    ],
    merchantInfo: { merchantId: google.merchantId, merchantName: google.merchantName },
    transactionInfo: {
      totalPriceStatus: 'FINAL',
      totalPrice: amount(price),
      currencyCode: 'USD',
      countryCode: 'US',
    },
  };
}

/** Apple's billing contact, with the phone of its shipping contact. */
export const appleBilling = (
  c: ApplePayContact | undefined,
  shipping?: ApplePayContact,
): Partial<WalletBilling> => ({
  firstName: c?.givenName,
  lastName: c?.familyName,
  addressLine1: c?.addressLines?.[0],
  addressLine2: c?.addressLines?.[1],
  city: c?.locality,
  state: c?.administrativeArea,
  zipCode: c?.postalCode,
  country: c?.countryCode,
  phoneNumber: shipping?.phoneNumber ?? c?.phoneNumber,
});

/** Google's billing address. */
export const googleBilling = (a: GoogleAddress | undefined): Partial<WalletBilling> => {
  const [firstName, ...rest] = (a?.name ?? '').trim().split(/\s+/);
  return {
    firstName: firstName || undefined,
    lastName: rest.join(' ') || undefined,
    addressLine1: a?.address1,
    addressLine2: a?.address2,
    city: a?.locality,
    state: a?.administrativeArea,
    zipCode: a?.postalCode,
    country: a?.countryCode,
    phoneNumber: a?.phoneNumber,
  };
};
