import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { escapeHtml, isHttpUrl, listen, postWebhook } from '../http';

/**
 * A Coinbase Commerce-shaped crypto provider for development and tests: its own HTTP service on its
 * own port and origin, imitating the **legacy** Charge API (API version 2018-03-22, documented until
 * 2024-01-26), not the newer "Commerce Onchain" contract: per-coin pricing and addresses, and the
 * statuses NEW, PENDING, COMPLETED, EXPIRED, UNRESOLVED (with a context), RESOLVED, CANCELED.
 *
 * - `POST /charges` (`X-CC-Api-Key`) → 201 `{ data: charge, warnings }`; fixed_price in USD only;
 * - `GET /charges/{id|code}`, `POST /charges/{id|code}/cancel` (NEW only),
 *   `POST /charges/{id|code}/resolve` (UNRESOLVED only);
 * - the hosted page `GET /charges/{code}`, where a person pays (in full, or half: underpaid), lets
 *   the charge expire or cancels it. The real API and hosted page live on two hosts
 *   (api.commerce.coinbase.com, commerce.coinbase.com) but share the path `/charges/…`; here one
 *   origin serves both, so a GET carrying `X-CC-Api-Key` is the API and one without it is the page;
 * - webhooks for every status change to the configured URL, signed with `X-CC-Webhook-Signature`
 *   (lowercase hex HMAC-SHA256 of the raw body with the shared secret), retried on failure.
 *
 * For tests, `setHostedPages(false)` makes the charges created from then on come without a
 * `hosted_url` (a charge nobody can pay: no page is served for it), as a provider that made no
 * payment page would answer.
 *
 * Every answer carries `warnings`: the provider's "Missing X-CC-Version header" line when the
 * request has no `X-CC-Version`, else none. A NEW charge whose 60 minutes are over becomes EXPIRED
 * when it is next read, or at the next sweep (every 30 s), whichever comes first.
 *
 * State lives in memory (the newest MAX_ENTRIES charges): a restart forgets everything, as a
 * sandbox may.
 */

export const SANDBOX_API_KEY = '5a4db0c5-7e57-4c0b-9a5e-000000000001';
export const SANDBOX_WEBHOOK_SECRET = 'vitrine-sandbox-coinbase-webhook-secret';
export const SANDBOX_DEFAULT_PORT = 8791;
/** Seconds between webhook retries (Coinbase backs off for up to 3 days; a sandbox need not). */
export const DEFAULT_RETRY_SCHEDULE = [1, 2, 5, 10, 30, 60, 120, 300];
/** The one API version served (the legacy contract's). */
export const API_VERSION = '2018-03-22';

const CHARGE_TTL_MS = 60 * 60_000;
const SWEEP_EVERY_MS = 30_000;
const MAX_ENTRIES = 10_000;
const MISSING_VERSION_WARNING = `Missing X-CC-Version header; serving latest API version (${API_VERSION})`;

export interface CoinbaseSandboxOptions {
  /** 0 picks a free port; default SANDBOX_DEFAULT_PORT. */
  port?: number;
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

type Status = 'NEW' | 'PENDING' | 'COMPLETED' | 'EXPIRED' | 'UNRESOLVED' | 'RESOLVED' | 'CANCELED';
type Coin = 'ethereum' | 'bitcoin' | 'bitcoincash' | 'usdc';

/**
 * The coins offered on the hosted page, with made-up fixed rates (USD cents per unit), the decimals
 * amounts are quoted in, and the network a payment in that coin travels on (USDC is an ERC-20
 * token on Ethereum).
 */
const COINS: Record<
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
const COIN_NAMES = Object.keys(COINS) as Coin[];

interface Payment {
  network: string;
  transactionId: string;
  status: 'PENDING' | 'CONFIRMED';
  detectedAt: Date;
  localCents: number;
  coin: Coin;
}

interface Charge {
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
function newCode(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let code = '';
  for (const b of randomBytes(8)) code += alphabet[b % 36];
  return code;
}

/** A Map that forgets its oldest entries beyond MAX_ENTRIES. */
function bounded<K, V>(): Map<K, V> {
  const map = new Map<K, V>();
  const set = map.set.bind(map);
  map.set = (key, value) => {
    set(key, value);
    if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value as K);
    return map;
  };
  return map;
}

/** ISO 8601 in UTC to the second, as the provider writes times ("2017-01-31T20:49:02Z"). */
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** "12.50" → 1250: digits and at most two decimals, at most ten integer digits; else null. */
function centsOf(amount: unknown): number | null {
  if (typeof amount !== 'string') return null;
  const m = /^(0|[1-9]\d{0,9})(?:\.(\d{1,2}))?$/.exec(amount);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** 1250 → "12.50". */
const amountOf = (cents: number) =>
  `${(cents - (cents % 100)) / 100}.${String(cents % 100).padStart(2, '0')}`;

/** USD cents in a coin at its fixed rate, rounded up to the coin's last quoted decimal. */
function cryptoOf(cents: number, coin: Coin): string {
  const { rateCents, decimals } = COINS[coin];
  const scaled = BigInt(cents) * 10n ** BigInt(decimals);
  const units = (scaled + rateCents - 1n) / rateCents;
  const digits = units.toString().padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Receiving addresses shaped like each coin's (random, never on any chain). */
function newAddresses(): Record<Coin, string> {
  const bech32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
  const pick = (n: number) => [...randomBytes(n)].map((b) => bech32[b % 32]).join('');
  return {
    ethereum: `0x${hex(20)}`,
    bitcoin: `bc1q${pick(38)}`,
    bitcoincash: `bitcoincash:q${pick(41)}`,
    usdc: `0x${hex(20)}`,
  };
}

/** The event type for the status just entered (legacy contract). */
function eventTypeOf(status: Status, context: string | undefined): string {
  switch (status) {
    case 'NEW':
      return 'charge:created';
    case 'PENDING':
      return 'charge:pending';
    case 'COMPLETED':
      return 'charge:confirmed';
    case 'RESOLVED':
      return 'charge:resolved';
    case 'UNRESOLVED':
      // A payment after expiry is "delayed"; any other unresolved charge "failed to complete".
      return context === 'DELAYED' ? 'charge:delayed' : 'charge:failed';
    default:
      // EXPIRED and CANCELED.
      return 'charge:failed';
  }
}

export async function startCoinbaseSandbox(options: CoinbaseSandboxOptions = {}): Promise<CoinbaseSandbox> {
  const apiKey = options.apiKey ?? SANDBOX_API_KEY;
  const secret = options.webhookSecret ?? SANDBOX_WEBHOOK_SECRET;
  const retrySchedule = options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE;
  const copies = Math.max(1, options.deliveries ?? 1);
  const confirmAfterMs = options.confirmAfterMs ?? 2000;
  const now = options.now ?? (() => new Date());
  let webhookUrl = options.webhookUrl;
  let hostedPages = true;
  let origin = '';
  let envelopeSeq = 0;

  const charges = bounded<string, Charge>();
  const codes = bounded<string, string>();
  const timers = new Set<NodeJS.Timeout>();
  const deliveries: CoinbaseSandbox['deliveries'] = [];
  let closed = false;

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) run();
    }, ms);
    timers.add(timer);
  };

  /* ---- charges as JSON ---- */

  const statusOf = (c: Charge) => c.timeline.at(-1)!.status;
  const hostedUrl = (c: Charge) => `${origin}/charges/${c.code}`;

  function chargeJson(c: Charge) {
    const pricing: Record<string, { amount: string; currency: string }> = {
      local: { amount: amountOf(c.amount), currency: 'USD' },
    };
    const exchangeRates: Record<string, string> = {};
    for (const coin of COIN_NAMES) {
      pricing[coin] = { amount: cryptoOf(c.amount, coin), currency: COINS[coin].symbol };
      exchangeRates[`${COINS[coin].symbol}-USD`] = amountOf(Number(COINS[coin].rateCents));
    }
    return {
      id: c.id,
      resource: 'charge',
      code: c.code,
      name: c.name,
      description: c.description,
      ...(c.hosted ? { hosted_url: hostedUrl(c) } : {}),
      created_at: iso(c.createdAt),
      expires_at: iso(c.expiresAt),
      ...(c.confirmedAt ? { confirmed_at: iso(c.confirmedAt) } : {}),
      pricing_type: 'fixed_price',
      pricing,
      exchange_rates: exchangeRates,
      addresses: c.addresses,
      timeline: c.timeline.map((t) => ({
        time: iso(t.time),
        status: t.status,
        ...(t.context ? { context: t.context } : {}),
      })),
      payments: c.payments.map((p) => ({
        network: p.network,
        transaction_id: p.transactionId,
        status: p.status,
        detected_at: iso(p.detectedAt),
        value: {
          local: { amount: amountOf(p.localCents), currency: 'USD' },
          crypto: { amount: cryptoOf(p.localCents, p.coin), currency: COINS[p.coin].symbol },
        },
        block: {
          height: p.status === 'CONFIRMED' ? 100_000 : null,
          hash: p.status === 'CONFIRMED' ? createHash('sha256').update(p.transactionId).digest('hex') : null,
          confirmations_accumulated: p.status === 'CONFIRMED' ? 6 : 0,
          confirmations_required: 6,
        },
      })),
      metadata: c.metadata,
      redirects: {
        success_url: c.redirectUrl,
        cancel_url: c.cancelUrl,
        will_redirect_after_success: c.redirectUrl !== null,
      },
      organization_name: 'Vitrine (sandbox)',
      support_email: 'support@vitrine.invalid',
    };
  }

  /* ---- webhooks ---- */

  interface Outgoing {
    envelopeId: number;
    event: {
      id: string;
      resource: 'event';
      type: string;
      api_version: string;
      created_at: string;
      data: unknown;
    };
  }

  async function deliver(out: Outgoing, attempt: number) {
    if (closed || !webhookUrl) return;
    // The envelope names the attempt, so each attempt is its own body, signed on its own.
    const body = JSON.stringify({
      id: out.envelopeId,
      scheduled_for: iso(now()),
      attempt_number: attempt + 1,
      event: out.event,
    });
    const status = await postWebhook(webhookUrl, body, {
      'X-CC-Webhook-Signature': createHmac('sha256', secret).update(body, 'utf8').digest('hex'),
    });
    deliveries.push({ id: out.event.id, type: out.event.type, status });
    if (deliveries.length > MAX_ENTRIES) deliveries.shift();
    if ((status < 200 || status >= 300) && attempt < retrySchedule.length) {
      later(retrySchedule[attempt]! * 1000, () => void deliver(out, attempt + 1));
    }
  }

  function emit(c: Charge) {
    if (!webhookUrl) return;
    const last = c.timeline.at(-1)!;
    const event: Outgoing['event'] = {
      id: randomUUID(),
      resource: 'event',
      type: eventTypeOf(last.status, last.context),
      api_version: API_VERSION,
      created_at: iso(now()),
      data: chargeJson(c),
    };
    // Each copy is a delivery of its own (its own envelope id, retried on its own) of the same event:
    // the receiver tells repeats apart by `event.id`.
    for (let i = 0; i < copies; i++) void deliver({ envelopeId: ++envelopeSeq, event }, 0);
  }

  /* ---- state changes ---- */

  function setStatus(c: Charge, status: Status, context?: string) {
    c.timeline.push({ time: now(), status, ...(context ? { context } : {}) });
    emit(c);
  }

  /** A NEW charge past its expiry becomes EXPIRED (checked on every read and by the sweep). */
  function expireIfDue(c: Charge) {
    if (statusOf(c) === 'NEW' && now().getTime() > c.expiresAt.getTime()) setStatus(c, 'EXPIRED');
    return c;
  }

  function find(idOrCode: string) {
    const c = charges.get(idOrCode) ?? charges.get(codes.get(idOrCode) ?? '');
    return c ? expireIfDue(c) : undefined;
  }

  function addPayment(c: Charge, coin: Coin, localCents: number, status: Payment['status']) {
    const payment: Payment = {
      network: COINS[coin].network,
      transactionId: COINS[coin].network === 'ethereum' ? `0x${hex(32)}` : hex(32),
      status,
      detectedAt: now(),
      localCents,
      coin,
    };
    c.payments.push(payment);
    return payment;
  }

  const sweep = setInterval(() => {
    for (const c of charges.values()) expireIfDue(c);
  }, SWEEP_EVERY_MS);
  sweep.unref();

  /* ---- the API ---- */

  const app = new Hono();

  const warningsOf = (c: Context) => (c.req.header('X-CC-Version') ? [] : [MISSING_VERSION_WARNING]);
  const apiError = (c: Context, status: 400 | 401 | 404, type: string, message: string) =>
    c.json({ error: { type, message }, warnings: warningsOf(c) }, status);
  const invalid = (c: Context, message: string) => apiError(c, 400, 'invalid_request', message);
  const notFound = (c: Context) => apiError(c, 404, 'not_found', 'Not found');
  const keyOk = (c: Context) => c.req.header('X-CC-Api-Key') === apiKey;
  const unauthorized = (c: Context) => apiError(c, 401, 'authorization_error', 'No such API key.');

  app.post('/charges', async (c) => {
    if (!keyOk(c)) return unauthorized(c);
    // biome-ignore lint/suspicious/noExplicitAny: a request body read field by field, each checked
    const body = (await c.req.json().catch(() => null)) as Record<string, any> | null;
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return invalid(c, 'Request body must be a JSON object');
    if (typeof body.name !== 'string' || !body.name.trim() || body.name.length > 100)
      return invalid(c, 'name is required, 100 characters or less');
    if (typeof body.description !== 'string' || body.description.length > 200)
      return invalid(c, 'description is required, 200 characters or less');
    if (body.pricing_type !== 'fixed_price')
      return invalid(c, 'pricing_type must be fixed_price (the only kind this sandbox prices)');
    const price = body.local_price;
    const cents = centsOf(price?.amount);
    if (cents === null || cents <= 0)
      return invalid(c, 'local_price.amount must be a positive decimal string, e.g. "12.50"');
    if (price.currency !== 'USD') return invalid(c, 'local_price.currency must be USD');
    const metadata = body.metadata ?? {};
    if (typeof metadata !== 'object' || Array.isArray(metadata) || metadata === null)
      return invalid(c, 'metadata must be an object');
    for (const [key, value] of Object.entries(metadata))
      if (typeof value !== 'string') return invalid(c, `metadata.${key} must be a string`);
    for (const field of ['redirect_url', 'cancel_url'] as const)
      if (body[field] !== undefined && body[field] !== null && !isHttpUrl(body[field]))
        return invalid(c, `${field} must be an http(s) URL`);

    let code = newCode();
    while (codes.has(code)) code = newCode();
    const createdAt = now();
    const charge: Charge = {
      id: randomUUID(),
      code,
      name: body.name,
      description: body.description,
      amount: cents,
      metadata: { ...(metadata as Record<string, string>) },
      redirectUrl: body.redirect_url ?? null,
      cancelUrl: body.cancel_url ?? null,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + CHARGE_TTL_MS),
      confirmedAt: null,
      hosted: hostedPages,
      timeline: [],
      payments: [],
      addresses: newAddresses(),
    };
    charges.set(charge.id, charge);
    codes.set(code, charge.id);
    setStatus(charge, 'NEW');
    return c.json({ data: chargeJson(charge), warnings: warningsOf(c) }, 201);
  });

  app.get('/charges/:idOrCode', (c) => {
    // No API key: a person's browser asking for the hosted page.
    if (c.req.header('X-CC-Api-Key') === undefined) return hostedPage(c);
    if (!keyOk(c)) return unauthorized(c);
    const charge = find(c.req.param('idOrCode'));
    if (!charge) return notFound(c);
    return c.json({ data: chargeJson(charge), warnings: warningsOf(c) });
  });

  app.post('/charges/:idOrCode/cancel', (c) => {
    if (!keyOk(c)) return unauthorized(c);
    const charge = find(c.req.param('idOrCode'));
    if (!charge) return notFound(c);
    if (statusOf(charge) !== 'NEW')
      return invalid(c, `Only a NEW charge can be canceled; this one is ${statusOf(charge)}`);
    setStatus(charge, 'CANCELED');
    return c.json({ data: chargeJson(charge), warnings: warningsOf(c) });
  });

  app.post('/charges/:idOrCode/resolve', (c) => {
    if (!keyOk(c)) return unauthorized(c);
    const charge = find(c.req.param('idOrCode'));
    if (!charge) return notFound(c);
    if (statusOf(charge) !== 'UNRESOLVED')
      return invalid(c, `Only an UNRESOLVED charge can be resolved; this one is ${statusOf(charge)}`);
    setStatus(charge, 'RESOLVED');
    return c.json({ data: chargeJson(charge), warnings: warningsOf(c) });
  });

  /* ---- the hosted page ---- */

  const page = (title: string, content: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
fieldset{border:1px solid #999;border-radius:.4rem;margin:1rem 0}label{display:block;padding:.3rem 0}
code{word-break:break-all}.warning{border-left:4px solid #b00020;padding:.5rem .8rem;background:#fdecee}
button{font:inherit;padding:.6rem 1.2rem;margin:.3rem .5rem .3rem 0;border-radius:.4rem;border:1px solid #1a1a1a;cursor:pointer}
.pay{background:#1a1a1a;color:#fff}</style></head>
<body><main>
${content}
</main></body></html>`;

  const byCode = (c: Context) => {
    const code = c.req.param('idOrCode') ?? '';
    const charge = /^[A-Z0-9]{8}$/.test(code) ? find(code) : undefined;
    return charge && charge.code === code && charge.hosted ? charge : undefined;
  };
  const notFoundPage = (c: Context) =>
    c.html(
      page('Charge not found', '<h1>Charge not found</h1><p>There is no charge with this code.</p>'),
      404,
    );

  const endings: Record<Exclude<Status, 'NEW'>, { title: string; text: string }> = {
    PENDING: {
      title: 'Payment received',
      text: 'Your payment was detected and is waiting for confirmations on the blockchain.',
    },
    COMPLETED: { title: 'Payment complete', text: 'Your payment is confirmed.' },
    EXPIRED: { title: 'Charge expired', text: 'No payment arrived in time: this charge has expired.' },
    UNRESOLVED: {
      title: 'Payment needs attention',
      text: 'The payment received does not settle this charge; the merchant will resolve it with you.',
    },
    RESOLVED: { title: 'Payment resolved', text: 'The merchant has resolved this payment.' },
    CANCELED: { title: 'Charge canceled', text: 'This charge was canceled; nothing was paid.' },
  };

  function statusPage(c: Context, charge: Charge, httpStatus: 200 | 409 = 200) {
    const last = charge.timeline.at(-1)!;
    const ending = endings[last.status as Exclude<Status, 'NEW'>];
    const back = last.status === 'CANCELED' ? charge.cancelUrl : charge.redirectUrl;
    const paid = charge.payments.reduce((sum, p) => sum + p.localCents, 0);
    const text =
      last.status === 'UNRESOLVED'
        ? `${ending.text} Received $${amountOf(paid)} of $${amountOf(charge.amount)} (${last.context ?? 'OTHER'}).`
        : ending.text;
    return c.html(
      page(
        ending.title,
        `<h1>${escapeHtml(ending.title)}</h1>
<p role="status">${escapeHtml(text)}</p>
<p>${escapeHtml(charge.name)}: $${amountOf(charge.amount)} (charge ${charge.code}, ${last.status}${last.context ? ` ${escapeHtml(last.context)}` : ''}).</p>
${back ? `<p><a href="${escapeHtml(back)}">Back to ${escapeHtml(new URL(back).host)}</a></p>` : ''}`,
      ),
      httpStatus,
    );
  }

  function hostedPage(c: Context) {
    const charge = byCode(c);
    if (!charge) return notFoundPage(c);
    if (statusOf(charge) !== 'NEW') return statusPage(c, charge);
    const options = COIN_NAMES.map(
      (coin, i) => `<label><input type="radio" name="coin" value="${coin}"${i === 0 ? ' checked' : ''}>
${COINS[coin].label} (${COINS[coin].symbol}): ${cryptoOf(charge.amount, coin)} ${COINS[coin].symbol}
to <code>${escapeHtml(charge.addresses[coin])}</code></label>`,
    ).join('\n');
    return c.html(
      page(
        `Pay ${charge.name}`,
        `<h1>Pay $${amountOf(charge.amount)} USD</h1>
<p>${escapeHtml(charge.name)}${charge.description ? ` — ${escapeHtml(charge.description)}` : ''}</p>
<p>Crypto sandbox: act as the buyer's wallet. This charge expires at <time datetime="${iso(charge.expiresAt)}">${iso(charge.expiresAt)}</time>.</p>
<form method="post" action="/charges/${charge.code}">
<fieldset><legend>Pay with</legend>
${options}
</fieldset>
<p class="warning" role="note"><strong>Warning:</strong> send only the chosen coin on its own network
(ETH and USDC on Ethereum mainnet, BTC on Bitcoin, BCH on Bitcoin Cash). A payment on an unsupported
network, or in another token, cannot be detected and the funds are lost.</p>
<button class="pay" name="action" value="pay">Pay</button>
<button name="action" value="underpay">Underpay</button>
<button name="action" value="expire">Let it expire</button>
<button name="action" value="cancel">Cancel</button>
</form>`,
      ),
    );
  }

  app.post('/charges/:idOrCode', async (c) => {
    const charge = byCode(c);
    if (!charge) return notFoundPage(c);
    const form = await c.req.parseBody();
    const coin = (typeof form.coin === 'string' ? form.coin : 'ethereum') as Coin;
    if (!COIN_NAMES.includes(coin)) return c.text('Unknown coin', 400);
    // Whatever was asked, a charge that is no longer NEW only shows where it stands.
    if (statusOf(charge) !== 'NEW') return statusPage(c, charge, 409);
    const self = hostedUrl(charge);
    switch (form.action) {
      case 'pay': {
        const payment = addPayment(charge, coin, charge.amount, 'PENDING');
        setStatus(charge, 'PENDING');
        later(confirmAfterMs, () => {
          if (statusOf(charge) !== 'PENDING') return;
          payment.status = 'CONFIRMED';
          charge.confirmedAt = now();
          setStatus(charge, 'COMPLETED');
        });
        return c.redirect(charge.redirectUrl ?? self, 303);
      }
      case 'underpay': {
        // Half the price (rounded down to the cent) arrives: the charge is UNRESOLVED, UNDERPAID.
        addPayment(charge, coin, Math.floor(charge.amount / 2), 'CONFIRMED');
        setStatus(charge, 'UNRESOLVED', 'UNDERPAID');
        return c.redirect(self, 303);
      }
      case 'expire':
        setStatus(charge, 'EXPIRED');
        return c.redirect(self, 303);
      case 'cancel':
        setStatus(charge, 'CANCELED');
        return c.redirect(charge.cancelUrl ?? self, 303);
      default:
        return c.text('Unknown action', 400);
    }
  });

  const server = await listen(app.fetch, options.port ?? SANDBOX_DEFAULT_PORT, options.host);
  const { port } = server;
  origin = server.origin;
  return {
    url: origin,
    port,
    deliveries,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    setHostedPages(on) {
      hostedPages = on;
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await server.close();
    },
  };
}
