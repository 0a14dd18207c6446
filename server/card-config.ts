import { resolve } from 'node:path';
import {
  SANDBOX_DEFAULT_PORT,
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
} from '../sandbox/checkout-com/index';
import { integer, onOff, providerMode, required } from './env';

/**
 * The card provider's settings (Checkout.com, or its embedded sandbox) and the wallets that ride on
 * it (Apple Pay, Google Pay).
 */

/**
 * The card provider: `embedded` (the default of the embedded world) starts the Checkout.com-shaped
 * sandbox with the server on its own port; `external` talks to CHECKOUT_COM_API_URL with real keys; `off` runs
 * without card payments (checkout offers no card).
 */
export interface CheckoutComConfig {
  mode: 'embedded' | 'external' | 'off';
  /** API base; for the embedded sandbox, known once it listens. */
  apiUrl: string | undefined;
  publicKey: string;
  secretKey: string;
  webhookSignatureKey: string;
  /** Port of the embedded sandbox (0: any free port). */
  sandboxPort: number;
}

/**
 * Apple Pay on the web, charged through the card provider (docs/checkout.md, "Apple Pay and Google
 * Pay"). The server validates the merchant: it asks Apple's gateway (the validationURL the browser
 * got, an allow-listed Apple host) for a merchant session over mutual TLS with the merchant identity
 * certificate. With the embedded card sandbox, the sandbox plays Apple's gateway.
 */
export interface ApplePayConfig {
  /** The merchant identifier registered with Apple (merchant.…). */
  merchantId: string;
  /** Shown on the payment sheet (at most 64 characters). */
  displayName: string;
  /** PEM file of the merchant identity certificate (mutual TLS with Apple). */
  merchantCertFile: string | undefined;
  /** PEM file of its private key. */
  merchantKeyFile: string | undefined;
  /**
   * Where merchant sessions are asked for instead of the validationURL (APPLE_PAY_GATEWAY_URL); with
   * the embedded card sandbox, its `/applepay/paymentSession` when unset.
   */
  gatewayUrl: string | undefined;
}

/** Google Pay (web), charged through the card provider (gateway "checkoutltd", its public key). */
export interface GooglePayConfig {
  /** Google's merchant id; required in PRODUCTION. */
  merchantId: string | null;
  merchantName: string;
  environment: 'TEST' | 'PRODUCTION';
}

const CHECKOUT_COM_SETTINGS = [
  'CHECKOUT_COM_API_URL',
  'CHECKOUT_COM_PUBLIC_KEY',
  'CHECKOUT_COM_SECRET_KEY',
  'CHECKOUT_COM_WEBHOOK_KEY',
];

function checkoutComConfig(env: NodeJS.ProcessEnv, embedded: boolean): CheckoutComConfig {
  const mode = providerMode(
    env,
    'CHECKOUT_COM',
    'external',
    { all: CHECKOUT_COM_SETTINGS, url: 'CHECKOUT_COM_API_URL' },
    embedded,
  );
  const sandboxPort = integer(
    'CHECKOUT_COM_SANDBOX_PORT',
    env.CHECKOUT_COM_SANDBOX_PORT,
    SANDBOX_DEFAULT_PORT,
    0,
    65535,
  );
  if (mode === 'off')
    return { mode, apiUrl: undefined, publicKey: '', secretKey: '', webhookSignatureKey: '', sandboxPort };
  if (mode === 'embedded')
    return {
      mode,
      apiUrl: undefined,
      publicKey: SANDBOX_PUBLIC_KEY,
      secretKey: SANDBOX_SECRET_KEY,
      webhookSignatureKey: env.CHECKOUT_COM_WEBHOOK_KEY || SANDBOX_WEBHOOK_KEY,
      sandboxPort,
    };
  const [apiUrl, publicKey, secretKey, webhookSignatureKey] = required(
    env,
    CHECKOUT_COM_SETTINGS,
    'with CHECKOUT_COM=external',
  );
  return {
    mode,
    apiUrl: apiUrl!,
    publicKey: publicKey!,
    secretKey: secretKey!,
    webhookSignatureKey: webhookSignatureKey!,
    sandboxPort,
  };
}

/**
 * The wallets ride on the card provider: off without it. With the embedded sandbox both run by
 * default (a sandbox merchant; the sandbox plays Apple's gateway). With Checkout.com, Apple Pay runs
 * once APPLE_PAY_MERCHANT_ID is set (with the merchant identity certificate and key, unless
 * APPLE_PAY_GATEWAY_URL sends the requests elsewhere) and Google Pay once GOOGLE_PAY_MERCHANT_ID is
 * set (or GOOGLE_PAY=on in TEST). APPLE_PAY=off / GOOGLE_PAY=off turn either off.
 */
function walletsConfig(
  env: NodeJS.ProcessEnv,
  card: CheckoutComConfig,
): { applePay: ApplePayConfig | null; googlePay: GooglePayConfig | null } {
  const apple = onOff('APPLE_PAY', env.APPLE_PAY);
  const google = onOff('GOOGLE_PAY', env.GOOGLE_PAY);
  const embedded = card.mode === 'embedded';
  let applePay: ApplePayConfig | null = null;
  const appleMerchant = env.APPLE_PAY_MERCHANT_ID || (embedded ? 'merchant.test.vitrine.sandbox' : '');
  if (card.mode !== 'off' && apple !== false && (appleMerchant || apple)) {
    if (!appleMerchant) throw new Error('APPLE_PAY_MERCHANT_ID is required with APPLE_PAY=on');
    const displayName = env.APPLE_PAY_DISPLAY_NAME || 'Vitrine';
    if (displayName.length > 64) throw new Error('APPLE_PAY_DISPLAY_NAME must be at most 64 characters');
    const gatewayUrl = env.APPLE_PAY_GATEWAY_URL || undefined;
    if (gatewayUrl && !/^https?:\/\/[^/]+/.test(gatewayUrl))
      throw new Error('APPLE_PAY_GATEWAY_URL must be an http(s) URL');
    const certFile = env.APPLE_PAY_MERCHANT_CERT || undefined;
    const keyFile = env.APPLE_PAY_MERCHANT_KEY || undefined;
    if (!certFile !== !keyFile)
      throw new Error('APPLE_PAY_MERCHANT_CERT and APPLE_PAY_MERCHANT_KEY go together');
    if (!embedded && !gatewayUrl && !certFile)
      throw new Error('APPLE_PAY_MERCHANT_CERT and APPLE_PAY_MERCHANT_KEY are required for Apple Pay');
    applePay = {
      merchantId: appleMerchant,
      displayName,
      merchantCertFile: certFile && resolve(certFile),
      merchantKeyFile: keyFile && resolve(keyFile),
      gatewayUrl,
    };
  }
  let googlePay: GooglePayConfig | null = null;
  const googleMerchant = env.GOOGLE_PAY_MERCHANT_ID || null;
  if (card.mode !== 'off' && google !== false && (embedded || googleMerchant || google)) {
    const environment = env.GOOGLE_PAY_ENVIRONMENT || 'TEST';
    if (environment !== 'TEST' && environment !== 'PRODUCTION')
      throw new Error('GOOGLE_PAY_ENVIRONMENT must be TEST or PRODUCTION');
    if (environment === 'PRODUCTION' && !googleMerchant)
      throw new Error('GOOGLE_PAY_MERCHANT_ID is required with GOOGLE_PAY_ENVIRONMENT=PRODUCTION');
    googlePay = {
      merchantId: googleMerchant,
      merchantName: env.GOOGLE_PAY_MERCHANT_NAME || env.APPLE_PAY_DISPLAY_NAME || 'Vitrine',
      environment,
    };
  }
  return { applePay, googlePay };
}

export function cardConfig(env: NodeJS.ProcessEnv, embedded = true) {
  const checkoutCom = checkoutComConfig(env, embedded);
  return { checkoutCom, ...walletsConfig(env, checkoutCom) };
}
