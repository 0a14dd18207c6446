import { isObject, nonEmpty } from './wallet-encoding';

/**
 * The checks of the browser wallet APIs' requests: the wallets' stand-ins refuse what the real
 * clients refuse. Pure functions only: the browser stand-ins import this module as the tests do.
 */

const GOOGLE_PAY_AUTH_METHODS = ['PAN_ONLY', 'CRYPTOGRAM_3DS'];
const GOOGLE_PAY_CARD_NETWORKS = [
  'AMEX',
  'DISCOVER',
  'ELECTRON',
  'ELO',
  'ELO_DEBIT',
  'INTERAC',
  'JCB',
  'MAESTRO',
  'MASTERCARD',
  'VISA',
];
const subsetOf = (value: unknown, allowed: readonly string[]) =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((v) => typeof v === 'string' && allowed.includes(v)) &&
  new Set(value).size === value.length;

/**
 * Why Google's client would refuse a request, or null when it is well formed: `isReadyToPay` takes
 * an IsReadyToPayRequest, `loadPaymentData` a PaymentDataRequest (Google Pay API for web, request
 * objects, https://developers.google.com/pay/api/web/reference/request-objects):
 * - `apiVersion` 2 and `apiVersionMinor` 0;
 * - `allowedPaymentMethods`: CARD methods with `allowedAuthMethods` (PAN_ONLY, CRYPTOGRAM_3DS) and
 *   `allowedCardNetworks` (Google's network names, upper case), optional `billingAddressRequired`
 *   and `billingAddressParameters { format: MIN | FULL | FULL-ISO3166, phoneNumberRequired? }`;
 *   for `loadPaymentData` each with `tokenizationSpecification { type: PAYMENT_GATEWAY, parameters:
 *   { gateway, gatewayMerchantId } }`;
 * - for `loadPaymentData`, `merchantInfo` (its `merchantId` required in PRODUCTION) and
 *   `transactionInfo { totalPriceStatus: FINAL | ESTIMATED | NOT_CURRENTLY_KNOWN, totalPrice
 *   ("12.50", required unless not known), currencyCode (ISO 4217), countryCode? (ISO 3166-1) }`.
 * `expected` adds what the payment gateway requires (the card sandbox plays Checkout.com: gateway
 * `checkoutltd` with its public key as the gateway merchant id).
 */
export function googlePayRequestProblem(
  request: unknown,
  call: 'isReadyToPay' | 'loadPaymentData',
  expected: { environment?: string; gateway?: string; gatewayMerchantId?: string } = {},
): string | null {
  if (!isObject(request)) return 'the request is not an object';
  if (request.apiVersion !== 2) return 'apiVersion must be 2';
  if (request.apiVersionMinor !== 0) return 'apiVersionMinor must be 0';
  const methods = request.allowedPaymentMethods;
  if (!Array.isArray(methods) || methods.length === 0) return 'allowedPaymentMethods is required';
  for (const method of methods) {
    if (!isObject(method) || method.type !== 'CARD') return 'allowedPaymentMethods[].type must be CARD';
    const p = method.parameters;
    if (!isObject(p)) return 'allowedPaymentMethods[].parameters is required';
    if (!subsetOf(p.allowedAuthMethods, GOOGLE_PAY_AUTH_METHODS))
      return 'allowedAuthMethods must name PAN_ONLY and/or CRYPTOGRAM_3DS';
    if (!subsetOf(p.allowedCardNetworks, GOOGLE_PAY_CARD_NETWORKS))
      return 'allowedCardNetworks must name card networks Google knows (upper case)';
    if (p.billingAddressRequired !== undefined && typeof p.billingAddressRequired !== 'boolean')
      return 'billingAddressRequired must be a boolean';
    const address = p.billingAddressParameters;
    if (address !== undefined) {
      if (!isObject(address)) return 'billingAddressParameters must be an object';
      if (address.format !== undefined && !['MIN', 'FULL', 'FULL-ISO3166'].includes(address.format as string))
        return 'billingAddressParameters.format must be MIN, FULL or FULL-ISO3166';
      if (address.phoneNumberRequired !== undefined && typeof address.phoneNumberRequired !== 'boolean')
        return 'billingAddressParameters.phoneNumberRequired must be a boolean';
    }
    const tokenization = method.tokenizationSpecification;
    if (call === 'loadPaymentData' || tokenization !== undefined) {
      if (!isObject(tokenization) || tokenization.type !== 'PAYMENT_GATEWAY')
        return 'tokenizationSpecification.type must be PAYMENT_GATEWAY';
      const t = tokenization.parameters;
      if (!isObject(t) || !nonEmpty(t.gateway) || !nonEmpty(t.gatewayMerchantId))
        return 'tokenizationSpecification.parameters needs gateway and gatewayMerchantId';
      if (expected.gateway !== undefined && t.gateway !== expected.gateway)
        return `the gateway must be ${expected.gateway}`;
      if (expected.gatewayMerchantId !== undefined && t.gatewayMerchantId !== expected.gatewayMerchantId)
        return 'gatewayMerchantId is not this gateway merchant';
    }
  }
  if (call === 'isReadyToPay') return null;
  const merchant = request.merchantInfo;
  if (merchant !== undefined && !isObject(merchant)) return 'merchantInfo must be an object';
  if (expected.environment === 'PRODUCTION' && !(isObject(merchant) && nonEmpty(merchant.merchantId)))
    return 'merchantInfo.merchantId is required in PRODUCTION';
  if (isObject(merchant) && merchant.merchantName !== undefined && typeof merchant.merchantName !== 'string')
    return 'merchantInfo.merchantName must be text';
  const transaction = request.transactionInfo;
  if (!isObject(transaction)) return 'transactionInfo is required';
  const status = transaction.totalPriceStatus;
  if (status !== 'FINAL' && status !== 'ESTIMATED' && status !== 'NOT_CURRENTLY_KNOWN')
    return 'transactionInfo.totalPriceStatus must be FINAL, ESTIMATED or NOT_CURRENTLY_KNOWN';
  const price = transaction.totalPrice;
  if (status !== 'NOT_CURRENTLY_KNOWN' || price !== undefined)
    if (typeof price !== 'string' || !/^[0-9]+(\.[0-9][0-9])?$/.test(price))
      return 'transactionInfo.totalPrice must be text such as "12.50"';
  if (typeof transaction.currencyCode !== 'string' || !/^[A-Z]{3}$/.test(transaction.currencyCode))
    return 'transactionInfo.currencyCode must be an ISO 4217 code';
  if (
    transaction.countryCode !== undefined &&
    (typeof transaction.countryCode !== 'string' || !/^[A-Z]{2}$/.test(transaction.countryCode))
  )
    return 'transactionInfo.countryCode must be an ISO 3166-1 alpha-2 code';
  return null;
}

/** Apple Pay's payment networks, as ApplePayPaymentRequest names them (case-sensitive). */
const APPLE_PAY_NETWORK_NAMES = [
  'amex',
  'bancomat',
  'bancontact',
  'cartesBancaires',
  'chinaUnionPay',
  'dankort',
  'discover',
  'eftpos',
  'electron',
  'elo',
  'girocard',
  'interac',
  'jcb',
  'mada',
  'maestro',
  'masterCard',
  'mir',
  'privateLabel',
  'visa',
  'vPay',
];
const APPLE_PAY_CAPABILITIES = ['supports3DS', 'supportsEMV', 'supportsCredit', 'supportsDebit'];
const APPLE_PAY_CONTACT_FIELDS = ['email', 'name', 'phone', 'postalAddress', 'phoneticName'];

/**
 * Why Safari's `new ApplePaySession(version, request)` would throw (a TypeError), or null when the
 * ApplePayPaymentRequest is well formed: `countryCode` (ISO 3166-1 alpha-2) and `currencyCode` (ISO
 * 4217); `supportedNetworks` of Apple's network names (case-sensitive: `masterCard`);
 * `merchantCapabilities` including `supports3DS`; `total { label, amount: "12.50", type?: final |
 * pending }`; contact fields (`requiredBillingContactFields`, `requiredShippingContactFields`) of
 * `email`, `name`, `phone`, `postalAddress`, `phoneticName`.
 */
export function applePayRequestProblem(request: unknown): string | null {
  if (!isObject(request)) return 'the request is not an object';
  if (typeof request.countryCode !== 'string' || !/^[A-Z]{2}$/.test(request.countryCode))
    return 'countryCode must be an ISO 3166-1 alpha-2 code';
  if (typeof request.currencyCode !== 'string' || !/^[A-Z]{3}$/.test(request.currencyCode))
    return 'currencyCode must be an ISO 4217 code';
  if (!subsetOf(request.supportedNetworks, APPLE_PAY_NETWORK_NAMES))
    return 'supportedNetworks must name payment networks Apple knows (visa, masterCard, amex, discover…)';
  if (!subsetOf(request.merchantCapabilities, APPLE_PAY_CAPABILITIES))
    return 'merchantCapabilities must name Apple’s merchant capabilities';
  if (!(request.merchantCapabilities as string[]).includes('supports3DS'))
    return 'merchantCapabilities must include supports3DS';
  for (const key of ['requiredBillingContactFields', 'requiredShippingContactFields'] as const) {
    const fields = request[key];
    if (
      fields !== undefined &&
      !(Array.isArray(fields) && fields.every((f) => APPLE_PAY_CONTACT_FIELDS.includes(f)))
    )
      return `${key} must name contact fields (email, name, phone, postalAddress, phoneticName)`;
  }
  const total = request.total;
  if (!isObject(total) || !nonEmpty(total.label)) return 'total.label is required';
  if (typeof total.amount !== 'string' || !/^[0-9]+(\.[0-9]{1,2})?$/.test(total.amount))
    return 'total.amount must be a non-negative amount such as "12.50"';
  if (total.type !== undefined && total.type !== 'final' && total.type !== 'pending')
    return 'total.type must be final or pending';
  return null;
}
