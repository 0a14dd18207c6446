import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { escapeHtml, isHttpUrl, listen, postWebhook } from '../http';

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

export const SANDBOX_API_KEY = 'vitrine-sandbox-veriff-api-key-0001';
export const SANDBOX_SHARED_SECRET = 'vitrine-sandbox-veriff-shared-secret';
export const SANDBOX_DEFAULT_PORT = 8793;
export const DEFAULT_RETRY_SCHEDULE = [1, 2, 5, 10, 30, 60, 120, 300];
/** A session nobody finishes expires after 7 days (Veriff's session lifetime). */
const SESSION_TTL_MS = 7 * 24 * 3600_000;
const MAX_ENTRIES = 10_000;
const MAX_RESUBMISSIONS = 9;

export type Decision =
  | 'approved'
  | 'declined'
  | 'resubmission_requested'
  | 'review'
  | 'abandoned'
  | 'expired';
const DECISIONS: Record<
  Decision,
  { code: number; label: string; reason: string | null; reasonCode: number | null }
> = {
  approved: { code: 9001, label: 'Approve', reason: null, reasonCode: null },
  // 102 "Suspected document tampering" (Veriff's decline codes table).
  declined: { code: 9102, label: 'Decline', reason: 'Suspected document tampering', reasonCode: 102 },
  // Resubmission codes are 2xx in Veriff's table; 204 "Poor image quality" stands in for them.
  resubmission_requested: {
    code: 9103,
    label: 'Request resubmission',
    reason: 'Poor image quality',
    reasonCode: 204,
  },
  review: { code: 9121, label: 'Send to manual review', reason: null, reasonCode: null },
  abandoned: { code: 9104, label: 'Abandon', reason: null, reasonCode: null },
  expired: { code: 9104, label: 'Let it expire', reason: null, reasonCode: null },
};
const DECISION_NAMES = Object.keys(DECISIONS) as Decision[];

export interface VeriffSandboxOptions {
  /** 0 picks a free port; default SANDBOX_DEFAULT_PORT. */
  port?: number;
  host?: string;
  apiKey?: string;
  sharedSecret?: string;
  /** Where decisions are posted ("Webhook decisions URL"); none: no decision webhooks. */
  decisionWebhookUrl?: string;
  /** Where started/submitted events are posted ("Webhook events URL"); none: no event webhooks. */
  eventWebhookUrl?: string;
  retrySchedule?: number[];
  /** Deliver each webhook this many times (at-least-once delivery, for tests); default 1. */
  deliveries?: number;
  now?: () => Date;
}

export interface VeriffSandbox {
  url: string;
  port: number;
  /** Deliveries attempted so far (for tests): session id, kind, status and the HTTP answer (0: none). */
  deliveries: { sessionId: string; kind: 'event' | 'decision'; status: string; http: number }[];
  /** Decides a session as the hosted page would (for API tests), delivering its webhook. */
  decide(sessionId: string, decision: Decision): Promise<void>;
  close(): Promise<void>;
}

interface Session {
  id: string;
  token: string;
  vendorData: string | null;
  endUserId: string | null;
  callback: string | null;
  person: { firstName: string | null; lastName: string | null };
  createdAt: Date;
  status: 'created' | 'started' | 'submitted' | Decision;
  resubmissions: number;
  decision: {
    status: Decision;
    code: number;
    reason: string | null;
    reasonCode: number | null;
    time: Date;
  } | null;
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const hmac = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(payload, 'utf8').digest('hex');

function signatureOk(secret: string, payload: string, header: string | undefined): boolean {
  if (!header || !/^[0-9a-f]{64}$/i.test(header)) return false;
  return timingSafeEqual(Buffer.from(hmac(secret, payload), 'hex'), Buffer.from(header, 'hex'));
}

const optionalString = (value: unknown, max: number) =>
  value === undefined || value === null || (typeof value === 'string' && value.length <= max);

export async function startVeriffSandbox(options: VeriffSandboxOptions = {}): Promise<VeriffSandbox> {
  const apiKey = options.apiKey ?? SANDBOX_API_KEY;
  const secret = options.sharedSecret ?? SANDBOX_SHARED_SECRET;
  const retrySchedule = options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE;
  const copies = Math.max(1, options.deliveries ?? 1);
  const now = options.now ?? (() => new Date());
  let origin = '';
  let closed = false;
  const sessions = new Map<string, Session>();
  const byToken = new Map<string, string>();
  const timers = new Set<NodeJS.Timeout>();
  const deliveries: VeriffSandbox['deliveries'] = [];

  const remember = (s: Session) => {
    sessions.set(s.id, s);
    byToken.set(s.token, s.id);
    if (sessions.size > MAX_ENTRIES) {
      const oldest = sessions.values().next().value as Session;
      sessions.delete(oldest.id);
      byToken.delete(oldest.token);
    }
  };

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) run();
    }, ms);
    timers.add(timer);
  };

  /* ---- webhooks ---- */

  async function post(
    url: string,
    body: string,
    meta: Omit<VeriffSandbox['deliveries'][number], 'http'>,
    attempt: number,
  ) {
    if (closed) return;
    const http = await postWebhook(url, body, {
      'X-AUTH-CLIENT': apiKey,
      'X-HMAC-SIGNATURE': hmac(secret, body),
    });
    deliveries.push({ ...meta, http });
    if (deliveries.length > MAX_ENTRIES) deliveries.shift();
    if ((http < 200 || http >= 300) && attempt < retrySchedule.length)
      later(retrySchedule[attempt]! * 1000, () => void post(url, body, meta, attempt + 1));
  }

  /** Every copy's first attempt, awaited; retries run on their own. */
  const send = (
    url: string | undefined,
    body: unknown,
    meta: Omit<VeriffSandbox['deliveries'][number], 'http'>,
  ) =>
    url
      ? Promise.all(Array.from({ length: copies }, () => post(url, JSON.stringify(body), meta, 0))).then(
          () => undefined,
        )
      : Promise.resolve();

  function sendEvent(s: Session, action: 'started' | 'submitted') {
    return send(
      options.eventWebhookUrl,
      {
        id: s.id,
        attemptId: randomUUID(),
        feature: 'selfid',
        code: action === 'started' ? 7001 : 7002,
        action,
        vendorData: s.vendorData,
        ...(s.endUserId ? { endUserId: s.endUserId } : {}),
      },
      { sessionId: s.id, kind: 'event', status: action },
    );
  }

  function decisionJson(s: Session) {
    const d = s.decision;
    if (!d) return null;
    return {
      id: s.id,
      attemptId: randomUUID(),
      code: d.code,
      status: d.status,
      reason: d.reason,
      reasonCode: d.reasonCode,
      vendorData: s.vendorData,
      ...(s.endUserId ? { endUserId: s.endUserId } : {}),
      person: {
        firstName: s.person.firstName,
        lastName: s.person.lastName,
        idNumber: null,
        dateOfBirth: null,
        gender: null,
        nationality: null,
        placeOfBirth: null,
      },
      document:
        d.status === 'approved'
          ? { number: 'SANDBOX0001', type: 'PASSPORT', country: 'US', validFrom: null, validUntil: null }
          : null,
      decisionTime: d.time.toISOString(),
      acceptanceTime: s.createdAt.toISOString(),
      riskLabels: [],
      additionalVerifiedData: {},
      comments: [],
    };
  }

  async function decide(s: Session, wanted: Decision) {
    let status = wanted;
    let { code, reason, reasonCode } = DECISIONS[wanted];
    if (wanted === 'resubmission_requested' && s.resubmissions >= MAX_RESUBMISSIONS) {
      status = 'declined';
      ({ code } = DECISIONS.declined);
      reason = 'Resubmission limit exceeded';
      reasonCode = 539;
    }
    if (status === 'resubmission_requested') s.resubmissions += 1;
    s.status = status;
    s.decision = { status, code, reason, reasonCode, time: now() };
    await send(
      options.decisionWebhookUrl,
      { status: 'success', verification: decisionJson(s), technicalData: { ip: '127.0.0.1' } },
      { sessionId: s.id, kind: 'decision', status },
    );
  }

  /** A session nobody finished within its lifetime is expired (checked when it is read). */
  async function expireIfDue(s: Session) {
    if (!s.decision && now().getTime() - s.createdAt.getTime() > SESSION_TTL_MS) await decide(s, 'expired');
    return s;
  }

  /* ---- the API ---- */

  const app = new Hono();
  const apiError = (c: Context, status: 400 | 401 | 404, message: string) =>
    c.json(
      { status: 'fail', code: String(status === 401 ? 1102 : status === 404 ? 1404 : 1101), message },
      status,
    );

  app.post('/v1/sessions', async (c) => {
    if (c.req.header('X-AUTH-CLIENT') !== apiKey)
      return apiError(c, 401, 'Mandatory X-AUTH-CLIENT header containing the API key is missing or invalid.');
    const raw = await c.req.text();
    const signature = c.req.header('X-HMAC-SIGNATURE');
    if (signature !== undefined && !signatureOk(secret, raw, signature))
      return apiError(
        c,
        401,
        'Signature "x-hmac-signature" does not match the HMAC-SHA256 of the request body.',
      );
    let body: { verification?: Record<string, unknown> } | null;
    try {
      body = JSON.parse(raw);
    } catch {
      return apiError(c, 400, 'The request body is not JSON.');
    }
    const verification = body?.verification;
    if (!verification || typeof verification !== 'object' || Array.isArray(verification))
      return apiError(c, 400, 'verification is required and must be an object.');
    const person = (verification.person ?? {}) as Record<string, unknown>;
    if (typeof person !== 'object' || Array.isArray(person))
      return apiError(c, 400, 'verification.person must be an object.');
    if (!optionalString(person.firstName, 200) || !optionalString(person.lastName, 200))
      return apiError(c, 400, 'verification.person.firstName and lastName must be strings.');
    if (!optionalString(verification.vendorData, 1000))
      return apiError(c, 400, 'verification.vendorData must be a string of at most 1000 characters.');
    if (!optionalString(verification.endUserId, 100))
      return apiError(c, 400, 'verification.endUserId must be a UUID.');
    if (verification.callback !== undefined && !isHttpUrl(verification.callback))
      return apiError(c, 400, 'verification.callback must be an http(s) URL.');

    const id = randomUUID();
    const createdAt = now();
    const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const payload = b64url(
      JSON.stringify({
        auth_token: apiKey.slice(0, 8),
        session_id: id,
        iat: Math.floor(createdAt.getTime() / 1000),
      }),
    );
    const token = `${header}.${payload}.${createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')}`;
    const session: Session = {
      id,
      token,
      vendorData: (verification.vendorData as string | undefined) ?? null,
      endUserId: (verification.endUserId as string | undefined) ?? null,
      callback: (verification.callback as string | undefined) ?? null,
      person: {
        firstName: (person.firstName as string | undefined) ?? null,
        lastName: (person.lastName as string | undefined) ?? null,
      },
      createdAt,
      status: 'created',
      resubmissions: 0,
      decision: null,
    };
    remember(session);
    return c.json(
      {
        status: 'success',
        verification: {
          id,
          url: `${origin}/v/${token}`,
          vendorData: session.vendorData,
          host: origin,
          status: 'created',
          sessionToken: token,
        },
      },
      201,
    );
  });

  app.get('/v1/sessions/:id/decision', async (c) => {
    if (c.req.header('X-AUTH-CLIENT') !== apiKey)
      return apiError(c, 401, 'Mandatory X-AUTH-CLIENT header containing the API key is missing or invalid.');
    const id = c.req.param('id');
    if (!signatureOk(secret, id, c.req.header('X-HMAC-SIGNATURE')))
      return apiError(
        c,
        401,
        'Signature "x-hmac-signature" does not match the HMAC-SHA256 of the session id.',
      );
    const session = sessions.get(id);
    if (!session) return apiError(c, 404, 'Session not found.');
    await expireIfDue(session);
    return c.json({ status: 'success', verification: decisionJson(session), technicalData: { ip: null } });
  });

  /* ---- the hosted flow ---- */

  const page = (title: string, content: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
fieldset{border:1px solid #999;border-radius:.4rem;margin:1rem 0;padding:.5rem 1rem}
button{font:inherit;padding:.6rem 1.2rem;margin:.3rem .5rem .3rem 0;border-radius:.4rem;border:1px solid #1a1a1a;cursor:pointer;background:#fff}
.primary{background:#1a1a1a;color:#fff}.note{border-left:4px solid #555;padding:.5rem .8rem;background:#f3f3f3}</style></head>
<body><main>
${content}
</main></body></html>`;

  const sessionOfPage = (c: Context) => {
    const id = byToken.get(c.req.param('token') ?? '');
    return id ? sessions.get(id) : undefined;
  };
  const notFoundPage = (c: Context) =>
    c.html(
      page('Session not found', '<h1>Session not found</h1><p>This verification link is not valid.</p>'),
      404,
    );

  const back = (s: Session) =>
    s.callback
      ? `<p><a href="${escapeHtml(s.callback)}">Back to ${escapeHtml(new URL(s.callback).host)}</a></p>`
      : '';

  function statusPage(c: Context, s: Session, httpStatus: 200 | 409 = 200) {
    const d = s.decision!;
    return c.html(
      page(
        'Verification finished',
        `<h1>Verification finished</h1>
<p role="status">Decision: ${escapeHtml(d.status)} (${d.code})${d.reason ? `: ${escapeHtml(d.reason)}` : ''}.</p>
${back(s)}`,
      ),
      httpStatus,
    );
  }

  app.get('/v/:token', async (c) => {
    const s = sessionOfPage(c);
    if (!s) return notFoundPage(c);
    await expireIfDue(s);
    if (s.decision && s.status !== 'resubmission_requested') return statusPage(c, s);
    if (s.status === 'created') {
      s.status = 'started';
      await sendEvent(s, 'started');
    }
    const name = [s.person.firstName, s.person.lastName].filter(Boolean).join(' ') || 'the end user';
    const retry = s.status === 'resubmission_requested';
    const buttons = DECISION_NAMES.map(
      (d, i) =>
        `<button${i === 0 ? ' class="primary"' : ''} name="decision" value="${d}">${escapeHtml(DECISIONS[d].label)}</button>`,
    ).join('\n');
    return c.html(
      page(
        'Verify your identity',
        `<h1>Verify your identity</h1>
<p>Identity sandbox: act as ${escapeHtml(name)} and as the verification team. Nothing is photographed or stored.</p>
${retry ? `<p class="note" role="note">Please try again: ${escapeHtml(s.decision?.reason ?? '')}.</p>` : ''}
<form method="post" action="/v/${escapeHtml(s.token)}">
<fieldset><legend>Decision</legend>
${buttons}
</fieldset>
</form>`,
      ),
    );
  });

  app.post('/v/:token', async (c) => {
    const s = sessionOfPage(c);
    if (!s) return notFoundPage(c);
    await expireIfDue(s);
    if (s.decision && s.status !== 'resubmission_requested') return statusPage(c, s, 409);
    const form = await c.req.parseBody();
    const wanted = form.decision as Decision;
    if (!DECISION_NAMES.includes(wanted)) return c.text('Unknown decision', 400);
    // Submitting is what a person does; abandoning or letting it expire is not.
    if (wanted !== 'abandoned' && wanted !== 'expired') {
      s.status = 'submitted';
      await sendEvent(s, 'submitted');
    }
    await decide(s, wanted);
    return c.redirect(s.callback ?? `/v/${s.token}`, 303);
  });

  const server = await listen(app.fetch, options.port ?? SANDBOX_DEFAULT_PORT, options.host);
  const { port } = server;
  origin = server.origin;
  return {
    url: origin,
    port,
    deliveries,
    async decide(sessionId, decision) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      await decide(session, decision);
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await server.close();
    },
  };
}
