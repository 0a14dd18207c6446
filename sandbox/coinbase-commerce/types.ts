import { randomBytes } from 'node:crypto';

/** The crypto sandbox's keys and limits, its options and handle, coins, and the shape of a charge. */

export const SANDBOX_API_KEY = '5a4db0c5-7e57-4c0b-9a5e-000000000001';
export const SANDBOX_WEBHOOK_SECRET = 'vitrine-sandbox-coinbase-webhook-secret';
export const SANDBOX_DEFAULT_PORT = 8791;
/** Seconds between webhook retries (Coinbase backs off for up to 3 days; a sandbox need not). */
export const DEFAULT_RETRY_SCHEDULE = [1, 2, 5, 10, 30, 60, 120, 300];
/** The one API version served (the legacy contract's). */
export const API_VERSION = '2018-03-22';

export const CHARGE_TTL_MS = 60 * 60_000;
export const SWEEP_EVERY_MS = 30_000;
export const MAX_ENTRIES = 10_000;
export const MISSING_VERSION_WARNING = `Missing X-CC-Version header; serving latest API version (${API_VERSION})`;

export interface CoinbaseSandboxOptions {
  /** 0 picks a free port; default SANDBOX_DEFAULT_PORT. */
  port?: number;
  /** Where it listens (default 127.0.0.1: the sandbox answers anyone holding its published keys). */
  host?: string;
  apiKey?: string;
  /** Where charge events are posted; none: no webhooks. */
  webhookUrl?: string;
  webhookSecret?: string;
  /** Seconds before each retry of a failed delivery. */
  retrySchedule?: number[];
  /** Deliver each event this many times (at-least-once delivery, for tests); default 1. */
  deliveries?: number;
  /** How long a paid charge stays PENDING before it is COMPLETED; default 2000 ms. */
  confirmAfterMs?: number;
  now?: () => Date;
}

export interface CoinbaseSandbox {
  url: string;
  port: number;
  setWebhookUrl(url: string | undefined): void;
  /** Whether new charges get a hosted page and its `hosted_url` (default true). */
  setHostedPages(on: boolean): void;
  /** Deliveries attempted so far (for tests): event id, type and the HTTP status (0: no answer). */
  deliveries: { id: string; type: string; status: number }[];
  close(): Promise<void>;
}

export type Status = 'NEW' | 'PENDING' | 'COMPLETED' | 'EXPIRED' | 'UNRESOLVED' | 'RESOLVED' | 'CANCELED';
export type Coin = 'ethereum' | 'bitcoin' | 'bitcoincash' | 'usdc';

/**
 * The coins offered on the hosted page, with made-up fixed rates (USD cents per unit), the decimals
 * amounts are quoted in, and the network a payment in that coin travels on (USDC is an ERC-20
 * token on Ethereum).
 */
export const COINS: Record<
  Coin,
  { symbol: string; label: string; rateCents: bigint; decimals: number; network: string }
> = {
  ethereum: { symbol: 'ETH', label: 'Ethereum', rateCents: 200_000n, decimals: 8, network: 'ethereum' },
  bitcoin: { symbol: 'BTC', label: 'Bitcoin', rateCents: 4_000_000n, decimals: 8, network: 'bitcoin' },
  bitcoincash: {
    symbol: 'BCH',
    label: 'Bitcoin Cash',
    rateCents: 25_000n,
    decimals: 8,
    network: 'bitcoincash',
  },
  usdc: { symbol: 'USDC', label: 'USD Coin', rateCents: 100n, decimals: 6, network: 'ethereum' },
};
export const COIN_NAMES = Object.keys(COINS) as Coin[];

export interface Payment {
  network: string;
  transactionId: string;
  status: 'PENDING' | 'CONFIRMED';
  detectedAt: Date;
  localCents: number;
  coin: Coin;
}

export interface Charge {
  id: string;
  code: string;
  name: string;
  description: string;
  /** The price, in USD cents. */
  amount: number;
  metadata: Record<string, string>;
  redirectUrl: string | null;
  cancelUrl: string | null;
  createdAt: Date;
  expiresAt: Date;
  confirmedAt: Date | null;
  timeline: { time: Date; status: Status; context?: string }[];
  payments: Payment[];
  addresses: Record<Coin, string>;
  /** Whether it has a hosted page (and its answers a `hosted_url`). */
  hosted: boolean;
}

/** 8 upper-case letters and digits, as the provider's charge codes. */
export function newCode(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let code = '';
  for (const b of randomBytes(8)) code += alphabet[b % 36];
  return code;
}

/** ISO 8601 in UTC to the second, as the provider writes times ("2017-01-31T20:49:02Z"). */
export const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** "12.50" → 1250: digits and at most two decimals, at most ten integer digits; else null. */
export function centsOf(amount: unknown): number | null {
  if (typeof amount !== 'string') return null;
  const m = /^(0|[1-9]\d{0,9})(?:\.(\d{1,2}))?$/.exec(amount);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** 1250 → "12.50". */
export const amountOf = (cents: number) =>
  `${(cents - (cents % 100)) / 100}.${String(cents % 100).padStart(2, '0')}`;

/** USD cents in a coin at its fixed rate, rounded up to the coin's last quoted decimal. */
export function cryptoOf(cents: number, coin: Coin): string {
  const { rateCents, decimals } = COINS[coin];
  const scaled = BigInt(cents) * 10n ** BigInt(decimals);
  const units = (scaled + rateCents - 1n) / rateCents;
  const digits = units.toString().padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

export const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Receiving addresses shaped like each coin's (random, never on any chain). */
export function newAddresses(): Record<Coin, string> {
  const bech32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
  const pick = (n: number) => [...randomBytes(n)].map((b) => bech32[b % 32]).join('');
  return {
    ethereum: `0x${hex(20)}`,
    bitcoin: `bc1q${pick(38)}`,
    bitcoincash: `bitcoincash:q${pick(41)}`,
    usdc: `0x${hex(20)}`,
  };
}
