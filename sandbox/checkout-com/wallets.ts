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

import { base64ToJson, isObject, jsonToBase64, nonEmpty, randomBase64, randomHex } from './wallet-encoding';

export { applePayRequestProblem, googlePayRequestProblem } from './wallet-requests';

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
