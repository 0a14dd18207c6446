import { createHmac, timingSafeEqual } from 'node:crypto';
import ky, { TimeoutError } from 'ky';
import {
  type CryptoCharge,
  type CryptoChargeRequest,
  type CryptoChargeStatus,
  type CryptoProvider,
  CryptoProviderRefusedError,
  CryptoProviderUnavailableError,
  type CryptoWebhookEvent,
} from './crypto-provider';

/**
 * Coinbase Commerce's legacy Charge API (version 2018-03-22) over plain HTTP with `ky`, pointed at
 * any base URL: the live API (https://api.commerce.coinbase.com) or the local sandbox
 * (sandbox/coinbase-commerce).
 *
 * Not the official `coinbase-commerce-node` SDK, although its `Client.init(apiKey, baseApiUrl)` can
 * target another host: its client is a process-wide singleton (a second `init` reconfigures every
 * caller), it depends on the deprecated `request` package and pins lodash 4.17.15 (known
 * prototype-pollution advisories), and Coinbase removed the legacy Commerce API docs in 2024, so the
 * SDK will not be fixed. What we need of it is three calls and one HMAC.
 *
 * Rules:
 * - money is integer cents: `12.50` strings are read and written digit by digit, never as floats;
 *   digits past the cent in a provider amount are dropped (so `paid` never counts more than arrived);
 * - a 4xx answer is a refusal (CryptoProviderRefusedError with the provider's error type), except
 *   408 and 429 which, like network failures, timeouts, 5xx and unreadable answers, mean the
 *   provider is unavailable (CryptoProviderUnavailableError) and the caller may try again later;
 * - no automatic retries: a blindly repeated POST /charges would create a second charge;
 * - a charge's status is the last entry of its timeline; a status outside the legacy set we handle
 *   (e.g. REFUNDED) makes the answer unreadable rather than guessed at.
 */
export interface CoinbaseCommerceOptions {
  apiKey: string;
  /** API base, e.g. https://api.commerce.coinbase.com or http://127.0.0.1:8791. */
  apiUrl: string;
  /** The shared secret webhook deliveries are signed with (X-CC-Webhook-Signature). */
  webhookSecret: string;
  timeoutMs?: number;
}

export const COINBASE_API_VERSION = '2018-03-22';

// biome-ignore lint/suspicious/noExplicitAny: the provider's answers are plain JSON read field by field
type Json = any;

const STATUSES: ReadonlySet<string> = new Set<CryptoChargeStatus>([
  'NEW',
  'PENDING',
  'COMPLETED',
  'EXPIRED',
  'UNRESOLVED',
  'RESOLVED',
  'CANCELED',
]);

/** "12.50" → 1250, "12.5" → 1250, "12" → 1200, "0.129" → 12; anything else (signs, exponents) → null. */
export function centsOf(amount: unknown): number | null {
  if (typeof amount !== 'string') return null;
  const m = /^(\d{1,13})(?:\.(\d+))?$/.exec(amount);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').slice(0, 2).padEnd(2, '0'));
}

/** 1250 → "12.50". */
export function amountOf(cents: number): string {
  return `${(cents - (cents % 100)) / 100}.${String(cents % 100).padStart(2, '0')}`;
}

/** Lowercase hex HMAC-SHA256 of the raw body with the shared secret, as the provider signs. */
export function webhookSignature(rawBody: string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');
}

/** Whether `signature` is the body's signature, compared in constant time on equal-length buffers. */
export function signatureMatches(rawBody: string, signature: string | undefined, secret: string): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(rawBody, 'utf8').digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

const dateOf = (value: unknown) => {
  const d = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
  return Number.isNaN(d.getTime()) ? null : d;
};

/**
 * A legacy charge as the checkout reads it, or null when a field it needs is missing or malformed.
 * A charge without a `hosted_url` is read (hostedUrl null): nobody can pay it, which the caller
 * decides about.
 */
export function chargeOf(data: Json): CryptoCharge | null {
  if (!data || typeof data !== 'object') return null;
  const last = Array.isArray(data.timeline) ? data.timeline.at(-1) : undefined;
  if (!last || !STATUSES.has(last.status)) return null;
  const amount = centsOf(data.pricing?.local?.amount);
  const currency = data.pricing?.local?.currency;
  const createdAt = dateOf(data.created_at);
  const expiresAt = dateOf(data.expires_at);
  if (
    typeof data.id !== 'string' ||
    typeof data.code !== 'string' ||
    amount === null ||
    typeof currency !== 'string' ||
    !createdAt ||
    !expiresAt
  )
    return null;
  // What arrived: every detected payment's value in the local currency.
  let paid = 0;
  for (const payment of Array.isArray(data.payments) ? data.payments : []) {
    const local = payment?.value?.local;
    if (local?.currency !== currency) continue;
    const cents = centsOf(local.amount);
    if (cents === null) return null;
    paid += cents;
  }
  const metadata: Record<string, string> = {};
  if (data.metadata && typeof data.metadata === 'object')
    for (const [key, value] of Object.entries(data.metadata))
      if (typeof value === 'string') metadata[key] = value;
  return {
    id: data.id,
    code: data.code,
    hostedUrl: typeof data.hosted_url === 'string' && data.hosted_url !== '' ? data.hosted_url : null,
    status: last.status as CryptoChargeStatus,
    context: typeof last.context === 'string' ? last.context : null,
    amount,
    currency,
    paid,
    metadata,
    createdAt,
    expiresAt,
  };
}

export function createCoinbaseProvider(options: CoinbaseCommerceOptions): CryptoProvider {
  const api = ky.create({
    prefixUrl: options.apiUrl.replace(/\/+$/, ''),
    timeout: options.timeoutMs ?? 15_000,
    retry: 0,
    throwHttpErrors: false,
    headers: {
      Accept: 'application/json',
      'X-CC-Api-Key': options.apiKey,
      'X-CC-Version': COINBASE_API_VERSION,
    },
  });

  async function call(method: 'get' | 'post', path: string, json?: unknown): Promise<CryptoCharge> {
    let res: Response;
    let body: Json;
    try {
      res = await api(path, { method, json });
      body = await res.json().catch(() => null);
    } catch (err) {
      const why = err instanceof TimeoutError ? 'timeout' : err instanceof Error ? err.message : 'no answer';
      throw new CryptoProviderUnavailableError(`crypto provider unavailable (${why})`);
    }
    const status = res.status;
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
      throw new CryptoProviderRefusedError(
        status,
        typeof body?.error?.type === 'string' ? body.error.type : 'unknown',
        typeof body?.error?.message === 'string' ? body.error.message : `HTTP ${status}`,
      );
    }
    if (!res.ok) throw new CryptoProviderUnavailableError(`crypto provider unavailable (HTTP ${status})`);
    const charge = chargeOf(body?.data);
    if (!charge) throw new CryptoProviderUnavailableError('crypto provider answered an unreadable charge');
    return charge;
  }

  /** Ids are UUIDs and codes 8 characters: anything else is no charge, and never a path to follow. */
  const chargePath = (idOrCode: string, action = '') => {
    if (!/^[A-Za-z0-9-]{1,64}$/.test(idOrCode))
      throw new CryptoProviderRefusedError(404, 'not_found', 'No such charge');
    return `charges/${idOrCode}${action}`;
  };

  return {
    async createCharge(request: CryptoChargeRequest) {
      // Whole, positive cents only: anything else is refused here as the provider would refuse it.
      if (!Number.isSafeInteger(request.amount) || request.amount <= 0)
        throw new CryptoProviderRefusedError(400, 'invalid_request', 'amount must be positive whole cents');
      return call('post', 'charges', {
        name: request.name,
        description: request.description,
        pricing_type: 'fixed_price',
        local_price: { amount: amountOf(request.amount), currency: request.currency },
        metadata: request.metadata,
        redirect_url: request.redirectUrl,
        cancel_url: request.cancelUrl,
      });
    },
    async getCharge(idOrCode) {
      return call('get', chargePath(idOrCode));
    },
    async cancelCharge(idOrCode) {
      return call('post', chargePath(idOrCode, '/cancel'));
    },
    verifyWebhook(rawBody, signature) {
      if (!signatureMatches(rawBody, signature, options.webhookSecret)) return null;
      let envelope: Json;
      try {
        envelope = JSON.parse(rawBody);
      } catch {
        return null;
      }
      const event = envelope?.event;
      if (!event || typeof event.id !== 'string' || typeof event.type !== 'string') return null;
      const charge = chargeOf(event.data);
      return charge ? ({ id: event.id, type: event.type, charge } satisfies CryptoWebhookEvent) : null;
    },
  };
}
