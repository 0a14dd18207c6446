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
import { integer, missing, providerMode, required } from './env';

/**
 * The settings of the outside services (identity checks, crypto payments, the NFM token, the
 * on-ramp, the card provider and the wallets on it), read from the environment. With the embedded
 * world (VITRINE_EMBEDDED=on, the default) each runs its sandbox unless told otherwise; without it
 * (`off`) a provider whose settings are all unset is off, and one with some of them set needs the
 * rest (providerMode in server/env.ts). Incomplete settings are refused at start, each one named.
 */

/**
 * The identity provider (KYC): `embedded` (the default of the embedded world) starts the
 * Veriff-shaped sandbox with the server on its own port; `external` talks to VERIFF_API_URL (the integration's base URL, e.g.
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
 * The card-to-crypto on-ramp (Wert's widget and Data API): `embedded` (the default of the embedded
 * world) starts the Wert-shaped sandbox with the server on its own port (its own origin, as the real
 * widget's);
 * `remote` uses Wert (WERT_ORIGIN https://sandbox.wert.io or https://widget.wert.io, WERT_API_URL
 * https://partner-sandbox.wert.io or https://partner.wert.io, the partner id and keys Wert issued);
 * `off` runs without it (the checkout does not offer it).
 *
 * What the widget is asked to buy (signed with the partner key): `commodity_amount` = the price in
 * dollars of `commodity`, so the commodity must be a dollar stablecoin — FUSD, Flow's, by default
 * (the one the treasury pays refunds in); `network` names Flow for the provider (`flow` on mainnet,
 * `flow-testnet`, `flow-emulator`: ours, set WERT_NETWORK to the name Wert lists for the account);
 * `sc_address` is the treasury: the admin account (FLOW_ADMIN_ADDRESS; the emulator's service
 * account), which receives the coins with the purchase's description (server/checkout/wert/wert.ts).
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
 * The crypto provider (hosted charges): `embedded` (the default of the embedded world) starts the
 * Coinbase Commerce-shaped sandbox with the server on its own port; `external` talks to
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

const VERIFF_SETTINGS = ['VERIFF_API_URL', 'VERIFF_API_KEY', 'VERIFF_SHARED_SECRET'];

export function veriffConfig(env: NodeJS.ProcessEnv, embedded = true): VeriffConfig {
  const mode = providerMode(
    env,
    'VERIFF',
    'external',
    { all: VERIFF_SETTINGS, url: 'VERIFF_API_URL' },
    embedded,
  );
  const sandboxPort = integer(
    'VERIFF_SANDBOX_PORT',
    env.VERIFF_SANDBOX_PORT,
    VERIFF_SANDBOX_DEFAULT_PORT,
    0,
    65535,
  );
  if (mode === 'off') return { mode, apiUrl: undefined, apiKey: '', sharedSecret: '', sandboxPort };
  if (mode === 'embedded')
    return {
      mode,
      apiUrl: undefined,
      apiKey: VERIFF_SANDBOX_API_KEY,
      sharedSecret: env.VERIFF_SHARED_SECRET || VERIFF_SANDBOX_SHARED_SECRET,
      sandboxPort,
    };
  const [url, apiKey, sharedSecret] = required(env, VERIFF_SETTINGS, 'with VERIFF=external');
  if (!/^https?:\/\/[^/]+/.test(url!)) throw new Error('VERIFF_API_URL must be an http(s) URL');
  return {
    mode,
    apiUrl: url!.replace(/\/+$/, ''),
    apiKey: apiKey!,
    sharedSecret: sharedSecret!,
    sandboxPort,
  };
}

const COINBASE_SETTINGS = [
  'COINBASE_COMMERCE_API_URL',
  'COINBASE_COMMERCE_API_KEY',
  'COINBASE_COMMERCE_WEBHOOK_SECRET',
];

export function coinbaseConfig(env: NodeJS.ProcessEnv, embedded = true): CoinbaseConfig {
  const mode = providerMode(
    env,
    'COINBASE_COMMERCE',
    'external',
    { all: COINBASE_SETTINGS, url: 'COINBASE_COMMERCE_API_URL' },
    embedded,
  );
  const sandboxPort = integer(
    'COINBASE_COMMERCE_SANDBOX_PORT',
    env.COINBASE_COMMERCE_SANDBOX_PORT,
    COINBASE_SANDBOX_DEFAULT_PORT,
    0,
    65535,
  );
  if (mode === 'off') return { mode, apiUrl: undefined, apiKey: '', webhookSecret: '', sandboxPort };
  if (mode === 'embedded')
    return {
      mode,
      apiUrl: undefined,
      apiKey: COINBASE_SANDBOX_API_KEY,
      webhookSecret: env.COINBASE_COMMERCE_WEBHOOK_SECRET || COINBASE_SANDBOX_WEBHOOK_SECRET,
      sandboxPort,
    };
  const [apiUrl, apiKey, webhookSecret] = required(env, COINBASE_SETTINGS, 'with COINBASE_COMMERCE=external');
  return { mode, apiUrl: apiUrl!, apiKey: apiKey!, webhookSecret: webhookSecret!, sandboxPort };
}

/**
 * Paying with the NFM utility token (currency code FRR) from a browser wallet: a feature flag,
 * NFM_PAYMENTS=on (off by default: then the rail exists nowhere, not even in the API). In the
 * embedded world with no EVM_RPC_URL the server starts a local EVM node (anvil, port EVM_NODE_PORT)
 * and deploys NFM on the first start; with EVM_RPC_URL (required with VITRINE_EMBEDDED=off) it uses
 * that network: EVM_CHAIN_ID, NFM_TOKEN_ADDRESS and NFM_PAYMENTS_ADDRESS (the platform's receiving
 * address) are then required. USD converts to FRR at
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

export function tokenConfig(env: NodeJS.ProcessEnv, embedded = true): TokenConfig | null {
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
  if (embedded && !env.EVM_RPC_URL)
    return {
      mode: 'embedded',
      nodePort,
      chainId: 31337,
      frrPerUsd,
      ...(price && { price }),
      chainName: chainName ?? 'Vitrine local (anvil)',
      publicRpcUrl,
    };
  // A real network: without the embedded world, NFM_PAYMENTS=on needs one.
  const [rpcUrl, chainId, tokenAddress, paymentsAddress] = required(
    env,
    ['EVM_RPC_URL', 'EVM_CHAIN_ID', 'NFM_TOKEN_ADDRESS', 'NFM_PAYMENTS_ADDRESS'],
    embedded ? 'with EVM_RPC_URL' : 'with NFM_PAYMENTS=on (VITRINE_EMBEDDED=off starts no EVM node)',
  );
  const address = (name: string, value: string) => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(value)) throw new Error(`${name} must be an 0x address`);
    return value;
  };
  return {
    mode: 'external',
    nodePort,
    rpcUrl,
    chainId: integer('EVM_CHAIN_ID', chainId, 1, 1, Number.MAX_SAFE_INTEGER),
    tokenAddress: address('NFM_TOKEN_ADDRESS', tokenAddress!),
    paymentsAddress: address('NFM_PAYMENTS_ADDRESS', paymentsAddress!),
    frrPerUsd,
    ...(price && { price }),
    paymentsKey: env.NFM_PAYMENTS_PRIVATE_KEY || undefined,
    chainName,
    publicRpcUrl,
  };
}

const STABLECOINS = ['FUSD', 'USDC', 'USDT'];

const WERT_SETTINGS = ['WERT_ORIGIN', 'WERT_PARTNER_ID', 'WERT_PRIVATE_KEY', 'WERT_API_URL', 'WERT_API_KEY'];

export function wertConfig(env: NodeJS.ProcessEnv, embedded = true): WertConfig {
  let mode = providerMode(env, 'WERT', 'remote', { all: WERT_SETTINGS }, embedded);
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
    (embedded && flowNetwork === 'emulator' ? EMULATOR_SERVICE_ADDRESS : '');
  // The on-ramp pays the treasury: in the embedded world it is off without its address unless WERT
  // asks for it; otherwise the address is one more required setting.
  if (!treasury && embedded && !env.WERT) mode = 'off';
  const scAddress = treasury ? normalizeAddress(treasury) : '';
  const key = (name: string, value: string) => {
    if (!/^(0x)?[0-9a-fA-F]{64}$/.test(value))
      throw new Error(`${name} must be 32 bytes of hex (an Ed25519 seed)`);
    return value.replace(/^0x/i, '').toLowerCase();
  };
  const shared = { mode, sandboxPort, commodity, network, scAddress };
  if (mode === 'off')
    return { ...shared, partnerId: '', origin: undefined, privateKey: '', apiUrl: undefined, apiKey: '' };
  const problems = [
    ...(mode === 'remote' ? missing(env, WERT_SETTINGS, 'with WERT=remote') : []),
    ...(treasury ? [] : ['WERT_SC_ADDRESS or FLOW_ADMIN_ADDRESS is required for the on-ramp']),
  ];
  if (problems.length > 0) throw new Error(problems.join('\n'));
  if (mode === 'embedded')
    return {
      ...shared,
      partnerId: env.WERT_PARTNER_ID || WERT_SANDBOX_PARTNER_ID,
      origin: undefined,
      privateKey: key('WERT_PRIVATE_KEY', env.WERT_PRIVATE_KEY || WERT_SANDBOX_PRIVATE_KEY),
      apiUrl: undefined,
      apiKey: env.WERT_API_KEY || WERT_SANDBOX_API_KEY,
    };
  const [origin, partnerId, privateKey, apiUrl, apiKey] = WERT_SETTINGS.map((name) => env[name]!);
  return {
    ...shared,
    partnerId: partnerId!,
    origin: origin!.replace(/\/+$/, ''),
    privateKey: key('WERT_PRIVATE_KEY', privateKey!),
    apiUrl: apiUrl!.replace(/\/+$/, ''),
    apiKey: apiKey!,
  };
}
