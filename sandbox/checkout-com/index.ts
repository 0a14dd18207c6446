import { Hono } from 'hono';
import { listen } from '../http';
import { merchantSessionRoutes } from './merchant-session';
import { paymentRoutes } from './routes';
import { createStore } from './store';
import { threeDsRoutes } from './three-ds';
import {
  DEFAULT_RETRY_SCHEDULE,
  SANDBOX_DEFAULT_PORT,
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
  type Sandbox,
  type SandboxOptions,
} from './types';
import { createEmitter } from './webhooks';

export {
  DEFAULT_RETRY_SCHEDULE,
  SANDBOX_DEFAULT_PORT,
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
  type Sandbox,
  type SandboxOptions,
} from './types';

/**
 * A Checkout.com-shaped card provider for development and tests: its own HTTP service on its own
 * port and origin, speaking the shapes of Checkout.com's API (current platform, "NAS" keys):
 *
 * - `POST /tokens` (public key, called by browsers: CORS open) → a single-use `tok_` token that
 *   expires after 15 minutes: of a card (`type: 'card'`), or of an Apple Pay or Google Pay payment
 *   (`type: 'applepay' | 'googlepay'` with `token_data`, in the test format of ./wallets.ts);
 * - `POST /payments` (secret key; `Cko-Idempotency-Key` makes a retry answer the first result):
 *   201 with `approved` (a decline is a 201 too), or 202 Pending with `_links.redirect.href` when
 *   3-D Secure is requested for the challenge card;
 * - `GET /payments/{pay_|sid_}`, `POST /payments/{id}/captures|voids|refunds`;
 * - the 3-D Secure challenge page `GET /3ds/{sid}`, where a person approves or fails; the buyer
 *   is sent on to `success_url` or `failure_url` with `cko-session-id`; an unanswered challenge
 *   expires after 15 minutes;
 * - webhooks for every payment change to the configured URL, signed with `Cko-Signature` (hex
 *   HMAC-SHA256 of the raw body with the signature key), retried on failure;
 * - Apple Pay's merchant validation, as Apple's gateway answers it (`POST /applepay/paymentSession`:
 *   an opaque merchant session that expires after 5 minutes), for the embedded world, where the
 *   server asks the sandbox instead of Apple.
 *
 * State lives in memory (the newest MAX_ENTRIES of each kind): a restart forgets everything, as a
 * sandbox may.
 */

export async function startCheckoutSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const publicKey = options.publicKey ?? SANDBOX_PUBLIC_KEY;
  const secretKey = options.secretKey ?? SANDBOX_SECRET_KEY;
  const signatureKey = options.webhookSignatureKey ?? SANDBOX_WEBHOOK_KEY;
  const retrySchedule = options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE;
  const copies = Math.max(1, options.deliveries ?? 1);
  const now = options.now ?? (() => new Date());
  let webhookUrl = options.webhookUrl;
  let origin = '';

  const timers = new Set<NodeJS.Timeout>();
  const deliveries: Sandbox['deliveries'] = [];
  let closed = false;

  const emit = createEmitter({
    webhookUrl: () => webhookUrl,
    signatureKey,
    retrySchedule,
    copies,
    now,
    origin: () => origin,
    closed: () => closed,
    timers,
    deliveries,
  });
  const store = createStore({ now, origin: () => origin, emit });

  const app = new Hono();
  paymentRoutes(app, { publicKey, secretKey, now, origin: () => origin, store });
  merchantSessionRoutes(app, now);
  threeDsRoutes(app, store);

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
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await server.close();
    },
  };
}
