import type { TokenConfig } from '../provider-config';

/**
 * Where the USD → FRR rate (FRR per US dollar) of the NFM utility token comes from: a fixed rate
 * (NFM_FRR_PER_USD; the local default), or an HTTP JSON endpoint (NFM_PRICE_URL) read with a
 * timeout, the value at a dotted path of its answer (NFM_PRICE_FIELD), kept for a short while
 * (NFM_PRICE_CACHE_SECONDS) so that a page of estimates and the charge that follows agree and the
 * source is asked at most once per period. A source that cannot be read gives no rate: never a
 * stale or made-up one.
 */
export interface TokenPriceSource {
  /** FRR per USD: a positive decimal string with at most 6 decimals. */
  frrPerUsd(): Promise<string>;
}

/** The price source could not be read (down, slow, or an answer without a usable rate). */
export class TokenPriceUnavailableError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`the NFM price could not be read: ${reason}`, options);
    this.name = 'TokenPriceUnavailableError';
  }
}

export function fixedTokenPrice(frrPerUsd: string): TokenPriceSource {
  return { frrPerUsd: async () => frrPerUsd };
}

/** A rate as the conversion takes it: at most 6 decimals (rounded half up), positive, under 10⁹. */
export function normalizeRate(value: unknown): string | null {
  const text =
    typeof value === 'number' && Number.isFinite(value)
      ? value.toFixed(7)
      : typeof value === 'string'
        ? value.trim()
        : null;
  const m = text && /^(\d{1,9})(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const fraction = (m[2] ?? '').padEnd(7, '0');
  // Millionths, rounded half up on the seventh decimal.
  let micros = BigInt(m[1]!) * 1_000_000n + BigInt(fraction.slice(0, 6)) + (fraction[6]! >= '5' ? 1n : 0n);
  if (micros === 0n || micros >= 1_000_000_000n * 1_000_000n) return null;
  const whole = micros / 1_000_000n;
  micros %= 1_000_000n;
  const decimals = micros.toString().padStart(6, '0').replace(/0+$/, '');
  return decimals ? `${whole}.${decimals}` : whole.toString();
}

export function urlTokenPrice(options: {
  url: string;
  /** Dotted path of the rate in the JSON answer ("frrPerUsd", "data.rates.FRR"). */
  field: string;
  cacheMs: number;
  timeoutMs: number;
  now?: () => number;
  fetch?: typeof fetch;
}): TokenPriceSource {
  const now = options.now ?? Date.now;
  const get = options.fetch ?? fetch;
  let cached: { rate: string; at: number } | null = null;
  let reading: Promise<string> | null = null;

  async function read(): Promise<string> {
    let body: unknown;
    try {
      const res = await get(options.url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (!res.ok) throw new TokenPriceUnavailableError(`${options.url} answered ${res.status}`);
      body = await res.json();
    } catch (err) {
      if (err instanceof TokenPriceUnavailableError) throw err;
      throw new TokenPriceUnavailableError(`${options.url}: ${(err as Error)?.message ?? err}`, {
        cause: err,
      });
    }
    const value = options.field
      .split('.')
      .reduce<unknown>(
        (at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined),
        body,
      );
    const rate = normalizeRate(value);
    if (!rate)
      throw new TokenPriceUnavailableError(`${options.url} has no positive rate at ${options.field}`);
    return rate;
  }

  return {
    async frrPerUsd() {
      if (cached && now() - cached.at < options.cacheMs) return cached.rate;
      // Requests that arrive together share one read.
      reading ??= read()
        .then((rate) => {
          cached = { rate, at: now() };
          return rate;
        })
        .finally(() => {
          reading = null;
        });
      return reading;
    },
  };
}

/** The configured source. */
export function tokenPriceSource(token: TokenConfig, now?: () => number): TokenPriceSource {
  if (!token.price) return fixedTokenPrice(token.frrPerUsd);
  return urlTokenPrice({ ...token.price, now });
}
