import { Hono } from 'hono';
import { listen } from '../http';
import { apiRoutes } from './api';
import { hostedPageRoutes } from './hosted-page';
import { createChargeStore } from './store';
import {
  type CoinbaseSandbox,
  type CoinbaseSandboxOptions,
  DEFAULT_RETRY_SCHEDULE,
  SANDBOX_API_KEY,
  SANDBOX_DEFAULT_PORT,
  SANDBOX_WEBHOOK_SECRET,
  SWEEP_EVERY_MS,
} from './types';
import { createEmitter } from './webhooks';

export {
  API_VERSION,
  type CoinbaseSandbox,
  type CoinbaseSandboxOptions,
  DEFAULT_RETRY_SCHEDULE,
  SANDBOX_API_KEY,
  SANDBOX_DEFAULT_PORT,
  SANDBOX_WEBHOOK_SECRET,
} from './types';

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

  const emit = createEmitter({
    webhookUrl: () => webhookUrl,
    secret,
    retrySchedule,
    copies,
    now,
    origin: () => origin,
    closed: () => closed,
    later,
    deliveries,
  });
  const store = createChargeStore({ now, emit });

  const sweep = setInterval(() => {
    for (const c of store.charges.values()) store.expireIfDue(c);
  }, SWEEP_EVERY_MS);
  sweep.unref();

  const app = new Hono();
  // A GET of /charges/{code} without the API key is the hosted page: the API's route hands it over.
  const hostedPage = hostedPageRoutes(app, { now, origin: () => origin, confirmAfterMs, later, store });
  apiRoutes(app, { apiKey, now, origin: () => origin, hostedPages: () => hostedPages, store, hostedPage });

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
