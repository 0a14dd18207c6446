/**
 * Apple Pay and Google Pay test payloads for the card sandbox, and the checks of the browser APIs'
 * requests the wallets' stand-ins apply (docs/checkout.md, "Apple Pay and Google Pay").
 *
 * Checkout.com tokenizes a wallet payment with `POST /tokens` and the public key:
 * `{ type: 'applepay', token_data: <Apple's paymentData> }` or `{ type: 'googlepay', token_data:
 * <Google's parsed tokenizationData.token> }`. Real wallet data is encrypted for the processor, which
 * the sandbox cannot decrypt, so the sandbox reads a test format instead: the same envelopes, with
 * the part that is ciphertext in the real thing carrying the *decrypted* payload in the clear
 * (base64 of its JSON):
 *
 * - Apple Pay (`version: 'EC_v1'`): `data` = base64 of Apple's decrypted payment data
 *   `{ applicationPrimaryAccountNumber, applicationExpirationDate: 'YYMMDD', currencyCode: '840',
 *   transactionAmount, deviceManufacturerIdentifier, paymentDataType: '3DSecure', paymentData: {
 *   onlinePaymentCryptogram } }`; `signature` and `header { ephemeralPublicKey, publicKeyHash,
 *   transactionId }` are present and well-formed but not checked.
 * - Google Pay (`protocolVersion: 'ECv2'`): `signedMessage` = the JSON string `{ encryptedMessage,
 *   ephemeralPublicKey, tag }` whose `encryptedMessage` is base64 of Google's decrypted message
 *   `{ gatewayMerchantId?, messageExpiration, messageId, paymentMethod: 'CARD', paymentMethodDetails:
 *   { pan, expirationMonth, expirationYear, authMethod: 'PAN_ONLY' | 'CRYPTOGRAM_3DS', cryptogram? } }`;
 *   `signature` and `intermediateSigningKey` are not checked; an expired message is refused.
 *
 * The card numbers are the sandbox's test cards (sandbox/checkout-com/cards.ts): their outcomes
 * (declines, 3-D Secure) hold for wallet tokens too, except that a payment authenticated by the
 * device (Apple Pay, Google Pay CRYPTOGRAM_3DS) gets no 3-D Secure challenge.
 *
 * Pure functions and Web APIs only (btoa, atob, TextEncoder, crypto.getRandomValues): the browser
 * stand-ins of the wallets import this module as the tests do.
 */

export type MobileWallet = 'applepay' | 'googlepay';
export type GooglePayAuthMethod = 'PAN_ONLY' | 'CRYPTOGRAM_3DS';

/** A test card; the expiry defaults to December three years ahead. */
export interface WalletTestCard {
  number: string;
  expiryMonth?: number;
  expiryYear?: number;
}

/** Apple's `ApplePayPayment.token.paymentData`: what Checkout.com takes as `token_data`. */
export interface ApplePayPaymentData {
  version: 'EC_v1';
  data: string;
  signature: string;
  header: { ephemeralPublicKey: string; publicKeyHash: string; transactionId: string };
}

/** Apple's decrypted payment data (carried in the clear in the test format's `data`). */
export interface ApplePayDecryptedData {
  applicationPrimaryAccountNumber: string;
  /** YYMMDD: the last day of the expiry month. */
  applicationExpirationDate: string;
  /** ISO 4217 numeric ("840" US dollars). */
  currencyCode: string;
  /** In minor units. */
  transactionAmount: number;
  deviceManufacturerIdentifier: string;
  paymentDataType: '3DSecure';
  paymentData: { onlinePaymentCryptogram: string; eciIndicator?: string };
}

/** Google's `tokenizationData.token`, parsed: what Checkout.com takes as `token_data`. */
export interface GooglePayTokenData {
  protocolVersion: 'ECv2';
  signature: string;
  intermediateSigningKey?: { signedKey: string; signatures: string[] };
  /** A JSON string: `{ encryptedMessage, ephemeralPublicKey, tag }`. */
  signedMessage: string;
}

/** Google's decrypted message (carried in the clear in the test format's `encryptedMessage`). */
export interface GooglePayDecryptedMessage {
  gatewayMerchantId?: string;
  /** UTC milliseconds since the epoch, as text. */
  messageExpiration: string;
  messageId: string;
  paymentMethod: 'CARD';
  paymentMethodDetails: {
    pan: string;
    expirationMonth: number;
    expirationYear: number;
    authMethod: GooglePayAuthMethod;
    cryptogram?: string;
    eciIndicator?: string;
  };
}

/** A wallet payload as the sandbox read it. */
export interface WalletCard {
  wallet: MobileWallet;
  number: string;
  expiryMonth: number;
  expiryYear: number;
  /** The device authenticated the buyer (a cryptogram): no 3-D Secure challenge. */
  cryptogram: boolean;
  authMethod: GooglePayAuthMethod | null;
}

/* ---- encoding (Web APIs only) ---- */

function randomBytes(n: number): Uint8Array {
  const bytes = new Uint8Array(n);
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

const randomBase64 = (n: number) => bytesToBase64(randomBytes(n));
const randomHex = (n: number) => Array.from(randomBytes(n), (b) => b.toString(16).padStart(2, '0')).join('');
const jsonToBase64 = (value: unknown) => bytesToBase64(new TextEncoder().encode(JSON.stringify(value)));

/** The JSON object behind base64 text, or null. */
function base64ToJson(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  try {
    const binary = atob(text);
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    const value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

function cardOf(card: WalletTestCard | string, now: Date) {
  const c = typeof card === 'string' ? { number: card } : card;
  return {
    number: c.number.replace(/[\s-]/g, ''),
    expiryMonth: c.expiryMonth ?? 12,
    expiryYear: c.expiryYear ?? now.getUTCFullYear() + 3,
  };
}

/* ---- building (browser stand-ins, tests) ---- */

/**
 * Apple Pay's `paymentData` for a test card, in the sandbox's test format: send it as `token_data`
 * of `POST /tokens { type: 'applepay' }`.
 */
export function applePayTestToken(
  card: WalletTestCard | string,
  options: { amount?: number; currencyCode?: string; now?: Date } = {},
): ApplePayPaymentData {
  const { number, expiryMonth, expiryYear } = cardOf(card, options.now ?? new Date());
  const lastDay = new Date(Date.UTC(expiryYear, expiryMonth, 0)).getUTCDate();
  const two = (n: number) => String(n).padStart(2, '0');
  const decrypted: ApplePayDecryptedData = {
    applicationPrimaryAccountNumber: number,
    applicationExpirationDate: `${two(expiryYear % 100)}${two(expiryMonth)}${two(lastDay)}`,
    currencyCode: options.currencyCode ?? '840',
    transactionAmount: options.amount ?? 0,
    deviceManufacturerIdentifier: '040010030273',
    paymentDataType: '3DSecure',
    paymentData: { onlinePaymentCryptogram: randomBase64(20) },
  };
  return {
    version: 'EC_v1',
    data: jsonToBase64(decrypted),
    signature: randomBase64(96),
    header: {
      // An uncompressed P-256 point (0x04 ‖ x ‖ y) in the real thing.
      ephemeralPublicKey: randomBase64(65),
      publicKeyHash: randomBase64(32),
      transactionId: randomHex(32),
    },
  };
}

/**
 * Google Pay's token (`paymentMethodData.tokenizationData.token`, parsed) for a test card, in the
 * sandbox's test format: send it as `token_data` of `POST /tokens { type: 'googlepay' }`. The
 * message expires after `ttlMs` (default 7 days); `gatewayMerchantId`, when given, must be the
 * sandbox's public key.
 */
export function googlePayTestToken(
  card: WalletTestCard | string,
  authMethod: GooglePayAuthMethod = 'CRYPTOGRAM_3DS',
  options: { now?: Date; ttlMs?: number; gatewayMerchantId?: string } = {},
): GooglePayTokenData {
  const now = options.now ?? new Date();
  const { number, expiryMonth, expiryYear } = cardOf(card, now);
  const message: GooglePayDecryptedMessage = {
    ...(options.gatewayMerchantId ? { gatewayMerchantId: options.gatewayMerchantId } : {}),
    messageExpiration: String(now.getTime() + (options.ttlMs ?? 7 * 24 * 3600_000)),
    messageId: `AH2Ej${randomHex(24)}`,
    paymentMethod: 'CARD',
    paymentMethodDetails: {
      pan: number,
      expirationMonth: expiryMonth,
      expirationYear: expiryYear,
      authMethod,
      ...(authMethod === 'CRYPTOGRAM_3DS' ? { cryptogram: randomBase64(20), eciIndicator: '05' } : {}),
    },
  };
  return {
    protocolVersion: 'ECv2',
    signature: randomBase64(71),
    intermediateSigningKey: {
      signedKey: JSON.stringify({
        keyValue: randomBase64(91),
        keyExpiration: String(now.getTime() + 24 * 3600_000),
      }),
      signatures: [randomBase64(71)],
    },
    signedMessage: JSON.stringify({
      encryptedMessage: jsonToBase64(message),
      ephemeralPublicKey: randomBase64(65),
      tag: randomBase64(32),
    }),
  };
}

/* ---- reading (the sandbox's POST /tokens) ---- */

/** The card in an Apple Pay `token_data` of the test format, or null when it is malformed. */
export function readApplePayTokenData(tokenData: unknown): WalletCard | null {
  if (!isObject(tokenData) || !isObject(tokenData.header)) return null;
  const { version, signature, header } = tokenData;
  if (version !== 'EC_v1' && version !== 'RSA_v1') return null;
  if (!nonEmpty(signature) || !nonEmpty(header.publicKeyHash) || !nonEmpty(header.transactionId)) return null;
  // EC_v1 carries the ephemeral public key, RSA_v1 the wrapped key.
  if (!nonEmpty(version === 'EC_v1' ? header.ephemeralPublicKey : header.wrappedKey)) return null;
  const data = base64ToJson(tokenData.data);
  if (data?.paymentDataType !== '3DSecure') return null;
  const pan = data.applicationPrimaryAccountNumber;
  const expiry = data.applicationExpirationDate;
  if (typeof pan !== 'string' || !/^\d{12,19}$/.test(pan)) return null;
  if (typeof expiry !== 'string' || !/^\d{6}$/.test(expiry)) return null;
  if (!isObject(data.paymentData) || !nonEmpty(data.paymentData.onlinePaymentCryptogram)) return null;
  const month = Number(expiry.slice(2, 4));
  if (month < 1 || month > 12) return null;
  return {
    wallet: 'applepay',
    number: pan,
    expiryMonth: month,
    expiryYear: 2000 + Number(expiry.slice(0, 2)),
    cryptogram: true,
    authMethod: null,
  };
}

/**
 * The card in a Google Pay `token_data` of the test format, or null when it is malformed, its
 * message expired, or it names another gateway merchant.
 */
export function readGooglePayTokenData(
  tokenData: unknown,
  now: Date,
  gatewayMerchantId?: string,
): WalletCard | null {
  if (!isObject(tokenData)) return null;
  const { protocolVersion, signature, signedMessage, intermediateSigningKey } = tokenData;
  if (protocolVersion !== 'ECv1' && protocolVersion !== 'ECv2') return null;
  if (!nonEmpty(signature) || typeof signedMessage !== 'string') return null;
  if (
    intermediateSigningKey !== undefined &&
    !(
      isObject(intermediateSigningKey) &&
      nonEmpty(intermediateSigningKey.signedKey) &&
      Array.isArray(intermediateSigningKey.signatures) &&
      intermediateSigningKey.signatures.length > 0 &&
      intermediateSigningKey.signatures.every(nonEmpty)
    )
  )
    return null;
  let envelope: unknown;
  try {
    envelope = JSON.parse(signedMessage);
  } catch {
    return null;
  }
  if (!isObject(envelope) || !nonEmpty(envelope.ephemeralPublicKey) || !nonEmpty(envelope.tag)) return null;
  const message = base64ToJson(envelope.encryptedMessage);
  if (message?.paymentMethod !== 'CARD' || !nonEmpty(message.messageId)) return null;
  const expiration = Number(message.messageExpiration);
  if (typeof message.messageExpiration !== 'string' || !Number.isFinite(expiration)) return null;
  if (expiration <= now.getTime()) return null;
  if (message.gatewayMerchantId !== undefined && message.gatewayMerchantId !== gatewayMerchantId) return null;
  const details = message.paymentMethodDetails;
  if (!isObject(details)) return null;
  const { pan, expirationMonth, expirationYear, authMethod, cryptogram } = details;
  if (typeof pan !== 'string' || !/^\d{12,19}$/.test(pan)) return null;
  if (!Number.isInteger(expirationMonth) || !Number.isInteger(expirationYear)) return null;
  if (authMethod !== 'PAN_ONLY' && authMethod !== 'CRYPTOGRAM_3DS') return null;
  if (authMethod === 'CRYPTOGRAM_3DS' && !nonEmpty(cryptogram)) return null;
  return {
    wallet: 'googlepay',
    number: pan,
    expiryMonth: expirationMonth as number,
    expiryYear: expirationYear as number,
    cryptogram: authMethod === 'CRYPTOGRAM_3DS',
    authMethod,
  };
}

/* ---- the browser APIs' requests (the stand-ins refuse what the real clients refuse) ---- */

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
