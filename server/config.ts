import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  SANDBOX_DEFAULT_PORT,
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
} from '../sandbox/checkout-com/index';
import {
  SANDBOX_API_KEY as COINBASE_SANDBOX_API_KEY,
  SANDBOX_DEFAULT_PORT as COINBASE_SANDBOX_DEFAULT_PORT,
  SANDBOX_WEBHOOK_SECRET as COINBASE_SANDBOX_WEBHOOK_SECRET,
} from '../sandbox/coinbase-commerce/index';
import {
  SANDBOX_API_KEY as VERIFF_SANDBOX_API_KEY,
  SANDBOX_DEFAULT_PORT as VERIFF_SANDBOX_DEFAULT_PORT,
  SANDBOX_SHARED_SECRET as VERIFF_SANDBOX_SHARED_SECRET,
} from '../sandbox/veriff/index';
import {
  SANDBOX_API_KEY as WERT_SANDBOX_API_KEY,
  SANDBOX_DEFAULT_PORT as WERT_SANDBOX_DEFAULT_PORT,
  SANDBOX_PARTNER_ID as WERT_SANDBOX_PARTNER_ID,
  SANDBOX_PRIVATE_KEY as WERT_SANDBOX_PRIVATE_KEY,
} from '../sandbox/wert/index';
import { normalizeAddress } from './chain/config';
import { EMULATOR_SERVICE_ADDRESS } from './chain/emulator';
import { type CrashPoint, parseCrashPoint } from './crash';

/** Server configuration, read once from the environment (see docs/api.md). */
export interface Config {
  port: number;
  /** Directory for the embedded database, the JWT secret and the email outbox. */
  dataDir: string;
  /** postgres://… selects PostgreSQL; memory:// an in-memory PGlite; unset the PGlite in `<dataDir>/pglite`. */
  databaseUrl: string | undefined;
  jwtSecret: string;
  /** Lifetime of a session token (short: the refresh cookie renews it). */
  tokenTtlSeconds: number;
  /** How long a login session lasts without a refresh (each refresh extends it). */
  sessionTtlSeconds: number;
  /** Proxies whose X-Forwarded-For is believed (addresses or CIDR ranges); none by default. */
  trustedProxies: string[];
  /** Base of links sent by email. */
  publicUrl: string;
  nodeEnv: string;
  production: boolean;
  /** Mount the development helpers (the email outbox viewer): outside production, or with VITRINE_DEV_OUTBOX=1. */
  devTools: boolean;
  /**
   * The local Flow emulator: `embedded` (default on the emulator network) starts it and the FCL dev
   * wallet with the server; `external` uses one already running at FLOW_ACCESS_NODE; `off` runs
   * without a chain (API-only tests).
   */
  flowEmulator: 'embedded' | 'external' | 'off';
  /** Port of the FCL dev wallet started with an embedded emulator. */
  devWalletPort: number;
  /** Seed the embedded world into an empty catalog on start (VITRINE_SEED=off to skip). */
  seed: boolean;
  /** Crash tests only (VITRINE_CRASH_AT, see server/crash.ts): where the process kills itself. */
  crashAt?: CrashPoint;
  /** How long public catalog list answers are reused (VITRINE_CATALOG_CACHE_MS, default 2000; 0 off). */
  catalogCacheMs: number;
  /** The platform's fee on primary sales, in percent (a new blueprint's totalFeePercent). */
  platformFeePercent: number;
  /** The card provider (Checkout.com's API); see checkoutComConfig. */
  checkoutCom: CheckoutComConfig;
  /** Apple Pay through the card provider; absent or null: off. See walletsConfig. */
  applePay?: ApplePayConfig | null;
  /** Google Pay through the card provider; absent or null: off. See walletsConfig. */
  googlePay?: GooglePayConfig | null;
  coinbase: CoinbaseConfig;
  wert: WertConfig;
  token: TokenConfig | null;
  veriff: VeriffConfig;
  /** Emails of the accounts that are admins (VITRINE_ADMIN_EMAILS, comma-separated). */
  adminEmails: string[];
}

/**
 * The identity provider (KYC): `embedded` (the default) starts the Veriff-shaped sandbox with the
 * server on its own port; `external` talks to VERIFF_API_URL (the integration's base URL, e.g.
 * https://stationapi.veriff.com) with VERIFF_API_KEY and VERIFF_SHARED_SECRET; `off` runs without
 * identity verification (nobody can start it, so nobody new can list for sale).
 */
export interface VeriffConfig {
  mode: 'embedded' | 'external' | 'off';
  /** API base; for the embedded sandbox, known once it listens. */
  apiUrl: string | undefined;
  apiKey: string;
  /** Signs our requests and the provider's webhooks (X-HMAC-SIGNATURE). */
  sharedSecret: string;
  /** Port of the embedded sandbox (0: any free port). */
  sandboxPort: number;
}

/**
 * The card-to-crypto on-ramp (Wert's widget and Data API): `embedded` (the default) starts the
 * Wert-shaped sandbox with the server on its own port (its own origin, as the real widget's);
 * `remote` uses Wert (WERT_ORIGIN https://sandbox.wert.io or https://widget.wert.io, WERT_API_URL
 * https://partner-sandbox.wert.io or https://partner.wert.io, the partner id and keys Wert issued);
 * `off` runs without it (the checkout does not offer it).
 *
 * What the widget is asked to buy (signed with the partner key): `commodity_amount` = the price in
 * dollars of `commodity`, so the commodity must be a dollar stablecoin — FUSD, Flow's, by default
 * (the one the treasury pays refunds in); `network` names Flow for the provider (`flow` on mainnet,
 * `flow-testnet`, `flow-emulator`: ours, set WERT_NETWORK to the name Wert lists for the account);
 * `sc_address` is the treasury: the admin account (FLOW_ADMIN_ADDRESS; the emulator's service
 * account), which receives the coins with the purchase's description (server/checkout/wert.ts).
 */
export interface WertConfig {
  mode: 'embedded' | 'remote' | 'off';
  /** The widget's partner_id. */
  partnerId: string;
  /** The widget's origin; for the embedded sandbox, known once it listens. */
  origin: string | undefined;
  /** The partner's Ed25519 private key: a 32-byte seed in hex (the server signs with it). */
  privateKey: string;
  /** The Data API base (orders are read back from it); for the embedded sandbox, its origin. */
  apiUrl: string | undefined;
  apiKey: string;
  /** Port of the embedded sandbox (0: any free port). */
  sandboxPort: number;
  commodity: string;
  network: string;
  /** The treasury's Flow address (0x and 16 hex digits). */
  scAddress: string;
}

/**
 * The crypto provider (hosted charges): `embedded` (the default) starts the Coinbase
 * Commerce-shaped sandbox with the server on its own port; `external` talks to
 * COINBASE_COMMERCE_API_URL (https://api.commerce.coinbase.com) with a real key; `off` runs without
 * crypto payments (checkout does not offer them).
 */
export interface CoinbaseConfig {
  mode: 'embedded' | 'external' | 'off';
  /** API base; for the embedded sandbox, known once it listens. */
  apiUrl: string | undefined;
  apiKey: string;
  webhookSecret: string;
  /** Port of the embedded sandbox (0: any free port). */
  sandboxPort: number;
}

/**
 * The card provider: `embedded` (the default) starts the Checkout.com-shaped sandbox with the
 * server on its own port; `external` talks to CHECKOUT_COM_API_URL with real keys; `off` runs
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

export const JWT_SECRET_MIN = 32;
const DEFAULT_TOKEN_TTL = 15 * 60;
const DEFAULT_SESSION_TTL = 7 * 24 * 3600;

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** JWT_SECRET, else a secret generated once and kept in `<dataDir>/jwt-secret`. */
function jwtSecret(raw: string | undefined, dataDir: string): string {
  if (raw !== undefined && raw !== '') {
    if (raw.length < JWT_SECRET_MIN)
      throw new Error(`JWT_SECRET must be at least ${JWT_SECRET_MIN} characters`);
    return raw;
  }
  const file = join(dataDir, 'jwt-secret');
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(file, 'utf8').trim();
}

function flowEmulatorMode(env: NodeJS.ProcessEnv): Config['flowEmulator'] {
  const raw = env.FLOW_EMULATOR;
  if (raw === 'embedded' || raw === 'external' || raw === 'off') return raw;
  if (raw) throw new Error('FLOW_EMULATOR must be embedded, external or off');
  return !env.FLOW_NETWORK || env.FLOW_NETWORK === 'emulator' ? 'embedded' : 'external';
}

function crashAt(raw: string | undefined, production: boolean): CrashPoint | undefined {
  if (raw && production) throw new Error('VITRINE_CRASH_AT is for crash tests, not production');
  return parseCrashPoint(raw);
}

function seedMode(raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'on') return true;
  if (raw === 'off') return false;
  throw new Error('VITRINE_SEED must be on or off');
}

function veriffConfig(env: NodeJS.ProcessEnv): VeriffConfig {
  const raw = env.VERIFF;
  if (raw && raw !== 'embedded' && raw !== 'external' && raw !== 'off')
    throw new Error('VERIFF must be embedded, external or off');
  const apiUrl = env.VERIFF_API_URL || undefined;
  const mode = (raw as VeriffConfig['mode'] | undefined) ?? (apiUrl ? 'external' : 'embedded');
  const sandboxPort = integer(
    'VERIFF_SANDBOX_PORT',
    env.VERIFF_SANDBOX_PORT,
    VERIFF_SANDBOX_DEFAULT_PORT,
    0,
    65535,
  );
  if (mode !== 'external')
    return {
      mode,
      apiUrl: undefined,
      apiKey: VERIFF_SANDBOX_API_KEY,
      sharedSecret: env.VERIFF_SHARED_SECRET || VERIFF_SANDBOX_SHARED_SECRET,
      sandboxPort,
    };
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`${name} is required with VERIFF=external`);
    return value;
  };
  const url = required('VERIFF_API_URL');
  if (!/^https?:\/\/[^/]+/.test(url)) throw new Error('VERIFF_API_URL must be an http(s) URL');
  return {
    mode,
    apiUrl: url.replace(/\/+$/, ''),
    apiKey: required('VERIFF_API_KEY'),
    sharedSecret: required('VERIFF_SHARED_SECRET'),
    sandboxPort,
  };
}

/** VITRINE_ADMIN_EMAILS: a comma-separated list of emails, lower-cased. */
function adminEmails(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
}

function coinbaseConfig(env: NodeJS.ProcessEnv): CoinbaseConfig {
  const raw = env.COINBASE_COMMERCE;
  if (raw && raw !== 'embedded' && raw !== 'external' && raw !== 'off')
    throw new Error('COINBASE_COMMERCE must be embedded, external or off');
  const apiUrl = env.COINBASE_COMMERCE_API_URL || undefined;
  const mode = (raw as CoinbaseConfig['mode'] | undefined) ?? (apiUrl ? 'external' : 'embedded');
  const sandboxPort = integer(
    'COINBASE_COMMERCE_SANDBOX_PORT',
    env.COINBASE_COMMERCE_SANDBOX_PORT,
    COINBASE_SANDBOX_DEFAULT_PORT,
    0,
    65535,
  );
  if (mode !== 'external') {
    return {
      mode,
      apiUrl: undefined,
      apiKey: COINBASE_SANDBOX_API_KEY,
      webhookSecret: env.COINBASE_COMMERCE_WEBHOOK_SECRET || COINBASE_SANDBOX_WEBHOOK_SECRET,
      sandboxPort,
    };
  }
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`${name} is required with COINBASE_COMMERCE=external`);
    return value;
  };
  return {
    mode,
    apiUrl: required('COINBASE_COMMERCE_API_URL'),
    apiKey: required('COINBASE_COMMERCE_API_KEY'),
    webhookSecret: required('COINBASE_COMMERCE_WEBHOOK_SECRET'),
    sandboxPort,
  };
}

/**
 * Paying with the NFM utility token (currency code FRR) from a browser wallet: a feature flag,
 * NFM_PAYMENTS=on (off by default: then the rail exists nowhere, not even in the API). With no
 * EVM_RPC_URL the server starts a local EVM node (anvil, port EVM_NODE_PORT) and deploys NFM on the
 * first start; with EVM_RPC_URL it uses that network: EVM_CHAIN_ID, NFM_TOKEN_ADDRESS and
 * NFM_PAYMENTS_ADDRESS (the platform's receiving address) are then required. USD converts to FRR at
 * NFM_FRR_PER_USD (a fixed rate, default 10 FRR per dollar, at most 6 decimals), or at the rate an
 * HTTP JSON endpoint answers (NFM_PRICE_URL: the number at NFM_PRICE_FIELD, read within
 * NFM_PRICE_TIMEOUT_MS and kept NFM_PRICE_CACHE_SECONDS; server/evm/price.ts).
 */
export interface TokenConfig {
  mode: 'embedded' | 'external';
  nodePort: number;
  rpcUrl?: string;
  chainId: number;
  tokenAddress?: string;
  paymentsAddress?: string;
  /** FRR per USD, a decimal string: the fixed rate, used without `price`. */
  frrPerUsd: string;
  /** The rate read from an HTTP JSON endpoint instead (NFM_PRICE_URL). */
  price?: { url: string; field: string; cacheMs: number; timeoutMs: number };
  /** The payments address's key, to send NFM back (NFM_PAYMENTS_PRIVATE_KEY; anvil's own when embedded). */
  paymentsKey?: string;
  /** The network's name for a browser wallet that lacks it (EVM_CHAIN_NAME). */
  chainName?: string;
  /**
   * The RPC URL a browser wallet is given when it lacks the network (EVM_PUBLIC_RPC_URL; embedded:
   * the anvil node's own URL). Never the server's EVM_RPC_URL, which may carry a key.
   */
  publicRpcUrl?: string;
}

function tokenConfig(env: NodeJS.ProcessEnv): TokenConfig | null {
  const flag = env.NFM_PAYMENTS || 'off';
  if (flag !== 'on' && flag !== 'off') throw new Error('NFM_PAYMENTS must be on or off');
  if (flag === 'off') return null;
  const frrPerUsd = env.NFM_FRR_PER_USD || '10';
  if (!/^\d{1,9}(\.\d{1,6})?$/.test(frrPerUsd) || Number(frrPerUsd) <= 0)
    throw new Error('NFM_FRR_PER_USD must be a positive number with at most 6 decimals');
  const priceUrl = env.NFM_PRICE_URL || undefined;
  if (priceUrl && !/^https?:\/\//.test(priceUrl)) throw new Error('NFM_PRICE_URL must be an http(s) URL');
  if (priceUrl && env.NFM_FRR_PER_USD)
    throw new Error('NFM_PRICE_URL and NFM_FRR_PER_USD are two sources of the rate: set one');
  const field = env.NFM_PRICE_FIELD || 'frrPerUsd';
  if (!/^[\w-]+(\.[\w-]+)*$/.test(field))
    throw new Error('NFM_PRICE_FIELD must be a dotted path of names (e.g. data.frrPerUsd)');
  const price = priceUrl
    ? {
        url: priceUrl,
        field,
        cacheMs: integer('NFM_PRICE_CACHE_SECONDS', env.NFM_PRICE_CACHE_SECONDS, 60, 0, 3600) * 1000,
        timeoutMs: integer('NFM_PRICE_TIMEOUT_MS', env.NFM_PRICE_TIMEOUT_MS, 5000, 100, 60_000),
      }
    : undefined;
  const nodePort = integer('EVM_NODE_PORT', env.EVM_NODE_PORT, 8545, 0, 65535);
  const publicRpcUrl = env.EVM_PUBLIC_RPC_URL || undefined;
  if (publicRpcUrl && !/^https?:\/\//.test(publicRpcUrl))
    throw new Error('EVM_PUBLIC_RPC_URL must be an http(s) URL');
  const chainName = env.EVM_CHAIN_NAME || undefined;
  if (!env.EVM_RPC_URL)
    return {
      mode: 'embedded',
      nodePort,
      chainId: 31337,
      frrPerUsd,
      ...(price && { price }),
      chainName: chainName ?? 'Vitrine local (anvil)',
      publicRpcUrl,
    };
  const address = (name: string) => {
    const value = env[name];
    if (!value || !/^0x[0-9a-fA-F]{40}$/.test(value)) throw new Error(`${name} must be an 0x address`);
    return value;
  };
  return {
    mode: 'external',
    nodePort,
    rpcUrl: env.EVM_RPC_URL,
    chainId: env.EVM_CHAIN_ID
      ? integer('EVM_CHAIN_ID', env.EVM_CHAIN_ID, 1, 1, Number.MAX_SAFE_INTEGER)
      : (() => {
          throw new Error('EVM_CHAIN_ID is required with EVM_RPC_URL');
        })(),
    tokenAddress: address('NFM_TOKEN_ADDRESS'),
    paymentsAddress: address('NFM_PAYMENTS_ADDRESS'),
    frrPerUsd,
    ...(price && { price }),
    paymentsKey: env.NFM_PAYMENTS_PRIVATE_KEY || undefined,
    chainName,
    publicRpcUrl,
  };
}

const STABLECOINS = ['FUSD', 'USDC', 'USDT'];

function wertConfig(env: NodeJS.ProcessEnv): WertConfig {
  const raw = env.WERT;
  if (raw && raw !== 'embedded' && raw !== 'remote' && raw !== 'off')
    throw new Error('WERT must be embedded, remote or off');
  let mode = (raw as WertConfig['mode'] | undefined) ?? 'embedded';
  const sandboxPort = integer(
    'WERT_SANDBOX_PORT',
    env.WERT_SANDBOX_PORT,
    WERT_SANDBOX_DEFAULT_PORT,
    0,
    65535,
  );
  const commodity = (env.WERT_COMMODITY || 'FUSD').toUpperCase();
  if (!STABLECOINS.includes(commodity))
    throw new Error(`WERT_COMMODITY must be one of ${STABLECOINS.join(', ')}`);
  const flowNetwork = env.FLOW_NETWORK || 'emulator';
  const network = env.WERT_NETWORK || (flowNetwork === 'mainnet' ? 'flow' : `flow-${flowNetwork}`);
  const treasury =
    env.WERT_SC_ADDRESS ||
    env.FLOW_ADMIN_ADDRESS ||
    (flowNetwork === 'emulator' ? EMULATOR_SERVICE_ADDRESS : '');
  // The on-ramp pays the treasury: without its address it is off, unless WERT asks for it.
  if (mode !== 'off' && !treasury) {
    if (raw) throw new Error('WERT_SC_ADDRESS or FLOW_ADMIN_ADDRESS is required for the on-ramp');
    mode = 'off';
  }
  const scAddress = treasury ? normalizeAddress(treasury) : '';
  const key = (name: string, value: string) => {
    if (!/^(0x)?[0-9a-fA-F]{64}$/.test(value))
      throw new Error(`${name} must be 32 bytes of hex (an Ed25519 seed)`);
    return value.replace(/^0x/i, '').toLowerCase();
  };
  const shared = { mode, sandboxPort, commodity, network, scAddress };
  if (mode !== 'remote') {
    return {
      ...shared,
      partnerId: env.WERT_PARTNER_ID || WERT_SANDBOX_PARTNER_ID,
      origin: undefined,
      privateKey: key('WERT_PRIVATE_KEY', env.WERT_PRIVATE_KEY || WERT_SANDBOX_PRIVATE_KEY),
      apiUrl: undefined,
      apiKey: env.WERT_API_KEY || WERT_SANDBOX_API_KEY,
    };
  }
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`${name} is required with WERT=remote`);
    return value;
  };
  return {
    ...shared,
    partnerId: required('WERT_PARTNER_ID'),
    origin: required('WERT_ORIGIN').replace(/\/+$/, ''),
    privateKey: key('WERT_PRIVATE_KEY', required('WERT_PRIVATE_KEY')),
    apiUrl: required('WERT_API_URL').replace(/\/+$/, ''),
    apiKey: required('WERT_API_KEY'),
  };
}

function checkoutComConfig(env: NodeJS.ProcessEnv): CheckoutComConfig {
  const raw = env.CHECKOUT_COM;
  if (raw && raw !== 'embedded' && raw !== 'external' && raw !== 'off')
    throw new Error('CHECKOUT_COM must be embedded, external or off');
  const apiUrl = env.CHECKOUT_COM_API_URL || undefined;
  const mode = (raw as CheckoutComConfig['mode'] | undefined) ?? (apiUrl ? 'external' : 'embedded');
  const sandboxPort = integer(
    'CHECKOUT_COM_SANDBOX_PORT',
    env.CHECKOUT_COM_SANDBOX_PORT,
    SANDBOX_DEFAULT_PORT,
    0,
    65535,
  );
  if (mode !== 'external') {
    return {
      mode,
      apiUrl: undefined,
      publicKey: SANDBOX_PUBLIC_KEY,
      secretKey: SANDBOX_SECRET_KEY,
      webhookSignatureKey: env.CHECKOUT_COM_WEBHOOK_KEY || SANDBOX_WEBHOOK_KEY,
      sandboxPort,
    };
  }
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`${name} is required with CHECKOUT_COM=external`);
    return value;
  };
  return {
    mode,
    apiUrl: required('CHECKOUT_COM_API_URL'),
    publicKey: required('CHECKOUT_COM_PUBLIC_KEY'),
    secretKey: required('CHECKOUT_COM_SECRET_KEY'),
    webhookSignatureKey: required('CHECKOUT_COM_WEBHOOK_KEY'),
    sandboxPort,
  };
}

function onOff(name: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'on' || raw === 'off') return raw === 'on';
  throw new Error(`${name} must be on or off`);
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

function cardConfig(env: NodeJS.ProcessEnv) {
  const checkoutCom = checkoutComConfig(env);
  return { checkoutCom, ...walletsConfig(env, checkoutCom) };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer('PORT', env.PORT, 3000, 0, 65535);
  const dataDir = resolve(env.VITRINE_DATA_DIR || './data');
  const nodeEnv = env.NODE_ENV || 'development';
  return {
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: jwtSecret(env.JWT_SECRET, dataDir),
    tokenTtlSeconds: integer('JWT_TTL_SECONDS', env.JWT_TTL_SECONDS, DEFAULT_TOKEN_TTL, 60, 24 * 3600),
    sessionTtlSeconds: integer(
      'SESSION_TTL_SECONDS',
      env.SESSION_TTL_SECONDS,
      DEFAULT_SESSION_TTL,
      300,
      365 * 24 * 3600,
    ),
    trustedProxies: (env.VITRINE_TRUSTED_PROXIES ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    nodeEnv,
    production: nodeEnv === 'production',
    devTools: nodeEnv !== 'production' || env.VITRINE_DEV_OUTBOX === '1',
    flowEmulator: flowEmulatorMode(env),
    devWalletPort: integer('FLOW_DEV_WALLET_PORT', env.FLOW_DEV_WALLET_PORT, 8701, 1, 65535),
    seed: seedMode(env.VITRINE_SEED),
    crashAt: crashAt(env.VITRINE_CRASH_AT, nodeEnv === 'production' && env.VITRINE_DEV_OUTBOX !== '1'),
    catalogCacheMs: integer('VITRINE_CATALOG_CACHE_MS', env.VITRINE_CATALOG_CACHE_MS, 2000, 0, 60_000),
    platformFeePercent: integer('VITRINE_PLATFORM_FEE_PERCENT', env.VITRINE_PLATFORM_FEE_PERCENT, 5, 0, 50),
    ...cardConfig(env),
    coinbase: coinbaseConfig(env),
    wert: wertConfig(env),
    token: tokenConfig(env),
    veriff: veriffConfig(env),
    adminEmails: adminEmails(env.VITRINE_ADMIN_EMAILS),
  };
}
