import { Hono } from 'hono';
import { listen } from '../http';
import { apiRoutes } from './api';
import { hostedFlowRoutes } from './hosted-flow';
import { createSessionStore } from './sessions';
import {
  DEFAULT_RETRY_SCHEDULE,
  SANDBOX_API_KEY,
  SANDBOX_DEFAULT_PORT,
  SANDBOX_SHARED_SECRET,
  type VeriffSandbox,
  type VeriffSandboxOptions,
} from './types';
import { createSender } from './webhooks';

export {
  DEFAULT_RETRY_SCHEDULE,
  type Decision,
  SANDBOX_API_KEY,
  SANDBOX_DEFAULT_PORT,
  SANDBOX_SHARED_SECRET,
  type VeriffSandbox,
  type VeriffSandboxOptions,
} from './types';

/**
 * A Veriff-shaped identity verification provider for development and tests: its own HTTP service
 * on its own port and origin, imitating Veriff's v1 session API and its webhooks.
 *
 * - `POST /v1/sessions` (`X-AUTH-CLIENT`: the integration's API key; `X-HMAC-SIGNATURE`, when
 *   sent, must be the lowercase hex HMAC-SHA256 of the raw body with the shared secret) → 201
 *   `{ status: "success", verification: { id, url, vendorData, host, status: "created", sessionToken } }`;
 * - `GET /v1/sessions/{id}/decision` (`X-HMAC-SIGNATURE` over the session id) → `{ status, verification }`,
 *   `verification` null until a decision exists (the polling fallback);
 * - the hosted flow at `verification.url` (`/v/{sessionToken}`), where a person plays the end user
 *   and the verification team at once: approve, decline, request a resubmission, send to manual
 *   review, abandon, or let the session expire. Then the browser goes to `verification.callback`;
 * - event webhooks (started 7001 when the flow is opened, submitted 7002 when the person submits)
 *   and decision webhooks (approved 9001, declined 9102, resubmission_requested 9103,
 *   expired / abandoned 9104, review 9121) to the configured URLs, each signed with
 *   `X-HMAC-SIGNATURE` (hex HMAC-SHA256 of the raw body with the shared secret) and sent with
 *   `X-AUTH-CLIENT`, retried on failure.
 *
 * A decision is delivered (its first attempt answered) before the person's browser is sent back,
 * so the page they return to already knows the decision; the real provider decides later, and a
 * receiver must not count on that order. A resubmission-requested session can be resubmitted on the
 * same URL up to 9 times; the 10th request is declined instead (reason code 539). State lives in
 * memory (the newest MAX_ENTRIES sessions).
 */

export async function startVeriffSandbox(options: VeriffSandboxOptions = {}): Promise<VeriffSandbox> {
  const apiKey = options.apiKey ?? SANDBOX_API_KEY;
  const secret = options.sharedSecret ?? SANDBOX_SHARED_SECRET;
  const retrySchedule = options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE;
  const copies = Math.max(1, options.deliveries ?? 1);
  const now = options.now ?? (() => new Date());
  let origin = '';
  let closed = false;
  const timers = new Set<NodeJS.Timeout>();
  const deliveries: VeriffSandbox['deliveries'] = [];

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) run();
    }, ms);
    timers.add(timer);
  };

  const send = createSender({
    apiKey,
    secret,
    retrySchedule,
    copies,
    later,
    closed: () => closed,
    deliveries,
  });
  const store = createSessionStore({
    now,
    eventWebhookUrl: options.eventWebhookUrl,
    decisionWebhookUrl: options.decisionWebhookUrl,
    send,
  });

  const app = new Hono();
  apiRoutes(app, { apiKey, secret, now, origin: () => origin, store });
  hostedFlowRoutes(app, store);

  const server = await listen(app.fetch, options.port ?? SANDBOX_DEFAULT_PORT, options.host);
  const { port } = server;
  origin = server.origin;
  return {
    url: origin,
    port,
    deliveries,
    async decide(sessionId, decision) {
      const session = store.byId(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      await store.decide(session, decision);
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await server.close();
    },
  };
}
