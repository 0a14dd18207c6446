import { createHmac, randomBytes } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { escapeHtml, listen, postWebhook } from '../http';
import { type Card, declineOf, readCard, THREE_DS_CARD } from './cards';
import { type MobileWallet, readApplePayTokenData, readGooglePayTokenData, type WalletCard } from './wallets';

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

export const SANDBOX_PUBLIC_KEY = 'pk_sbox_vitrinesandboxpublickeyabcd';
export const SANDBOX_SECRET_KEY = 'sk_sbox_vitrinesandboxsecretkeyabcd';
export const SANDBOX_WEBHOOK_KEY = 'vitrine-sandbox-webhook-signature-key';
export const SANDBOX_DEFAULT_PORT = 8790;
/** Seconds between webhook retries (Checkout.com waits 5 min, 10 min, … 12 h; a sandbox need not). */
export const DEFAULT_RETRY_SCHEDULE = [1, 2, 5, 10, 30, 60, 120, 300];

const TOKEN_TTL_MS = 15 * 60_000;
/** Apple's merchant sessions expire 5 minutes after they are made. */
const MERCHANT_SESSION_TTL_MS = 5 * 60_000;
const SESSION_TTL_MS = 15 * 60_000;
const MAX_ENTRIES = 10_000;

export interface SandboxOptions {
  /** 0 picks a free port; default SANDBOX_DEFAULT_PORT. */
  port?: number;
  host?: string;
  publicKey?: string;
  secretKey?: string;
  /** Where payment events are posted; none: no webhooks. */
  webhookUrl?: string;
  webhookSignatureKey?: string;
  /** Seconds before each retry of a failed delivery. */
  retrySchedule?: number[];
  /** Deliver each event this many times (at-least-once delivery, for tests); default 1. */
  deliveries?: number;
  now?: () => Date;
}

export interface Sandbox {
  url: string;
  port: number;
  setWebhookUrl(url: string | undefined): void;
  /** Deliveries attempted so far (for tests): event id, type and the HTTP status (0: no answer). */
  deliveries: { id: string; type: string; status: number }[];
  close(): Promise<void>;
}

type Status =
  | 'Pending'
  | 'Authorized'
  | 'Card Verified'
  | 'Captured'
  | 'Declined'
  | 'Voided'
  | 'Refunded'
  | 'Expired';

interface Payment {
  id: string;
  sessionId: string | null;
  actionId: string;
  amount: number;
  currency: string;
  reference: string | null;
  status: Status;
  approved: boolean;
  responseCode: string | null;
  responseSummary: string | null;
  sourceId: string;
  card: Card;
  successUrl: string | null;
  failureUrl: string | null;
  metadata: Record<string, unknown>;
  customer: Record<string, unknown> | null;
  requestedOn: Date;
  processedOn: Date | null;
  threeDs: { enrolled: 'Y' | 'N'; downgraded: boolean } | null;
  actions: { id: string; type: string; processed_on: string; amount: number; approved: boolean }[];
}

/** `<prefix>_` and 26 lowercase base32 characters, as Checkout.com's ids. */
function newId(prefix: string): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(26);
  let id = '';
  for (const b of bytes) id += alphabet[b % 32];
  return `${prefix}_${id}`;
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

export async function startCheckoutSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const publicKey = options.publicKey ?? SANDBOX_PUBLIC_KEY;
  const secretKey = options.secretKey ?? SANDBOX_SECRET_KEY;
  const signatureKey = options.webhookSignatureKey ?? SANDBOX_WEBHOOK_KEY;
  const retrySchedule = options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE;
  const copies = Math.max(1, options.deliveries ?? 1);
  const now = options.now ?? (() => new Date());
  let webhookUrl = options.webhookUrl;
  let origin = '';

  const tokens = bounded<
    string,
    { card: Card; expiresAt: Date; used: boolean; wallet: MobileWallet | null; cryptogram: boolean }
  >();
  const sources = bounded<string, Card>();
  const payments = bounded<string, Payment>();
  const sessions = bounded<string, string>();
  const idempotent = bounded<string, { status: number; body: unknown }>();
  const timers = new Set<NodeJS.Timeout>();
  const deliveries: Sandbox['deliveries'] = [];
  let closed = false;

  const keyOf = (c: Context) => (c.req.header('Authorization') ?? '').replace(/^Bearer\s+/i, '');
  const requestInvalid = (c: Context, codes: string[], status: 422 | 403 = 422) =>
    c.json({ request_id: newId('req'), error_type: 'request_invalid', error_codes: codes }, status);

  /* ---- webhooks ---- */

  const eventTypes: Partial<Record<Status, string>> = {
    Pending: 'payment_pending',
    Authorized: 'payment_approved',
    'Card Verified': 'card_verified',
    Declined: 'payment_declined',
    Captured: 'payment_captured',
    Voided: 'payment_voided',
    Refunded: 'payment_refunded',
    Expired: 'payment_expired',
  };

  async function deliver(event: { id: string; type: string }, body: string, attempt: number) {
    if (closed || !webhookUrl) return;
    const status = await postWebhook(webhookUrl, body, {
      'Cko-Signature': createHmac('sha256', signatureKey).update(body).digest('hex'),
    });
    deliveries.push({ ...event, status });
    if (deliveries.length > MAX_ENTRIES) deliveries.shift();
    if ((status < 200 || status >= 300) && attempt < retrySchedule.length && !closed) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        void deliver(event, body, attempt + 1);
      }, retrySchedule[attempt]! * 1000);
      timers.add(timer);
    }
  }

  function emit(payment: Payment) {
    const type = eventTypes[payment.status];
    if (!type || !webhookUrl) return;
    const event = {
      id: newId('evt'),
      type,
      version: '1.0.29',
      created_on: now().toISOString(),
      data: {
        id: payment.id,
        action_id: payment.actionId,
        reference: payment.reference,
        amount: payment.amount,
        currency: payment.currency,
        response_code: payment.responseCode,
        response_summary: payment.responseSummary,
        processed_on: payment.processedOn?.toISOString(),
        metadata: payment.metadata,
        source: sourceJson(payment),
      },
      _links: {
        self: { href: `${origin}/workflows/events/${newId('evt')}` },
        payment: { href: `${origin}/payments/${payment.id}` },
      },
    };
    const body = JSON.stringify(event);
    for (let i = 0; i < copies; i++) void deliver(event, body, 0);
  }

  /* ---- payments ---- */

  function sourceJson(p: Payment) {
    return {
      type: 'card',
      id: p.sourceId,
      scheme: p.card.scheme,
      last4: p.card.last4,
      bin: p.card.bin,
      expiry_month: p.card.expiryMonth,
      expiry_year: p.card.expiryYear,
      fingerprint: createHmac('sha256', 'fingerprint').update(p.card.number).digest('hex').toUpperCase(),
      card_type: 'CREDIT',
      issuer_country: 'US',
    };
  }

  /** Settles an unanswered challenge that is too old. */
  function expire(p: Payment) {
    if (p.status === 'Pending' && now().getTime() - p.requestedOn.getTime() > SESSION_TTL_MS) {
      setStatus(p, 'Expired', false, null, null);
    }
    return p;
  }

  function setStatus(
    p: Payment,
    status: Status,
    approved: boolean,
    code: string | null,
    summary: string | null,
  ) {
    p.status = status;
    p.approved = approved;
    p.responseCode = code;
    p.responseSummary = summary;
    p.processedOn = now();
    p.actions.push({
      id: newId('act'),
      type: status === 'Declined' ? 'Authorization' : status,
      processed_on: p.processedOn.toISOString(),
      amount: p.amount,
      approved,
    });
    emit(p);
  }

  function paymentJson(p: Payment, bySession = false) {
    const links: Record<string, { href: string }> = {
      self: { href: `${origin}/payments/${p.id}` },
      actions: { href: `${origin}/payments/${p.id}/actions` },
    };
    if (p.status === 'Pending' && p.sessionId) links.redirect = { href: `${origin}/3ds/${p.sessionId}` };
    if (p.status === 'Authorized') {
      links.capture = { href: `${origin}/payments/${p.id}/captures` };
      links.void = { href: `${origin}/payments/${p.id}/voids` };
    }
    if (p.status === 'Captured') links.refund = { href: `${origin}/payments/${p.id}/refunds` };
    return {
      id: p.id,
      action_id: p.actionId,
      requested_on: p.requestedOn.toISOString(),
      amount: p.amount,
      currency: p.currency,
      approved: p.approved,
      status: p.status,
      ...(p.responseCode ? { response_code: p.responseCode, response_summary: p.responseSummary } : {}),
      ...(p.processedOn ? { processed_on: p.processedOn.toISOString() } : {}),
      reference: p.reference,
      source: sourceJson(p),
      customer: p.customer ?? undefined,
      metadata: p.metadata,
      '3ds': p.threeDs ?? undefined,
      risk: { flagged: false },
      ...(bySession ? { actions: p.actions } : {}),
      _links: links,
    };
  }

  const app = new Hono();
  app.use(
    '/tokens',
    cors({ origin: '*', allowHeaders: ['Authorization', 'Content-Type'], allowMethods: ['POST'] }),
  );

  app.post('/tokens', async (c) => {
    if (keyOf(c) !== publicKey) return c.body(null, 401);
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    if (!body) return requestInvalid(c, ['request_body_malformed']);
    let read: ReturnType<typeof readCard>;
    let walletCard: WalletCard | null = null;
    if (body.type === 'card') {
      read = readCard(body, now());
    } else if (body.type === 'applepay' || body.type === 'googlepay') {
      // A wallet payment: the card inside its token data (the sandbox's test format, ./wallets.ts).
      if (body.token_data === undefined || body.token_data === null)
        return requestInvalid(c, ['token_data_required']);
      walletCard =
        body.type === 'applepay'
          ? readApplePayTokenData(body.token_data)
          : readGooglePayTokenData(body.token_data, now(), publicKey);
      if (!walletCard) return requestInvalid(c, ['token_data_invalid']);
      read = readCard(
        {
          number: walletCard.number,
          expiry_month: walletCard.expiryMonth,
          expiry_year: walletCard.expiryYear,
        },
        now(),
      );
      // The decrypted data names a card the sandbox cannot read: the token data is invalid.
      if ('errors' in read && !read.errors.every((e) => e === 'card_expired'))
        return requestInvalid(c, ['token_data_invalid']);
    } else {
      return requestInvalid(c, ['token_type_invalid']);
    }
    if ('errors' in read) return requestInvalid(c, read.errors);
    const token = newId('tok');
    const expiresAt = new Date(now().getTime() + TOKEN_TTL_MS);
    tokens.set(token, {
      card: read.card,
      expiresAt,
      used: false,
      wallet: walletCard?.wallet ?? null,
      cryptogram: walletCard?.cryptogram ?? false,
    });
    return c.json(
      {
        type: body.type,
        token,
        expires_on: expiresAt.toISOString(),
        expiry_month: read.card.expiryMonth,
        expiry_year: read.card.expiryYear,
        scheme: read.card.scheme,
        last4: read.card.last4,
        bin: read.card.bin,
        card_type: 'CREDIT',
        card_category: 'CONSUMER',
        issuer_country: 'US',
        name: read.card.name ?? undefined,
        // Checkout.com says how a Google Pay token was authenticated.
        ...(walletCard?.authMethod ? { token_format: walletCard.authMethod.toLowerCase() } : {}),
      },
      201,
    );
  });

  /* ---- Apple Pay merchant validation (Apple's gateway, for the embedded world) ---- */

  const hex = (n: number) => randomBytes(n).toString('hex');
  app.post('/applepay/paymentSession', async (c) => {
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    const refuse = (message: string) =>
      c.json({ statusCode: '400', statusMessage: `Payment Services Exception ${message}` }, 400);
    if (!body) return refuse('request body is not JSON');
    const { merchantIdentifier, displayName } = body;
    if (typeof merchantIdentifier !== 'string' || !merchantIdentifier.trim())
      return refuse('merchantIdentifier is missing');
    if (typeof displayName !== 'string' || !displayName.trim() || displayName.length > 64)
      return refuse('displayName must be 1 to 64 characters');
    // Today's form names the initiative; the older one only the domain.
    const domain = body.initiative !== undefined ? body.initiativeContext : body.domainName;
    if (body.initiative !== undefined && body.initiative !== 'web')
      return refuse(`initiative ${String(body.initiative)} is not supported`);
    if (typeof domain !== 'string' || !/^[a-z0-9.-]+$/i.test(domain))
      return refuse('initiativeContext must be the domain of the page');
    const merchantHash = createHmac('sha256', 'merchant')
      .update(merchantIdentifier)
      .digest('hex')
      .toUpperCase();
    const created = now().getTime();
    return c.json({
      epochTimestamp: created,
      expiresAt: created + MERCHANT_SESSION_TTL_MS,
      merchantSessionIdentifier: `SSH${hex(16).toUpperCase()}_${hex(32).toUpperCase()}`,
      nonce: hex(4),
      merchantIdentifier: merchantHash,
      domainName: domain,
      displayName,
      signature: randomBytes(96).toString('base64'),
      operationalAnalyticsIdentifier: `${displayName}:${merchantHash}`,
      retries: 0,
      pspId: merchantHash,
    });
  });

  /** The secret key, and a repeated Cko-Idempotency-Key answered with the first answer. */
  async function guarded(
    c: Context,
    scope: string,
    run: () => Promise<Response> | Response,
  ): Promise<Response> {
    if (keyOf(c) !== secretKey) return c.body(null, 401);
    const key = c.req.header('Cko-Idempotency-Key');
    const remembered = key ? idempotent.get(`${scope} ${key}`) : undefined;
    if (remembered) return c.json(remembered.body as object, remembered.status as 200);
    const res = await run();
    if (key && res.status < 500)
      idempotent.set(`${scope} ${key}`, {
        status: res.status,
        body: await res
          .clone()
          .json()
          .catch(() => null),
      });
    return res;
  }

  app.post('/payments', (c) =>
    guarded(c, 'payments', async () => {
      // biome-ignore lint/suspicious/noExplicitAny: a request body read field by field, each checked
      const body = (await c.req.json().catch(() => null)) as Record<string, any> | null;
      if (!body) return requestInvalid(c, ['request_body_malformed']);
      const amount = body.amount;
      if (!Number.isSafeInteger(amount) || amount < 0) return requestInvalid(c, ['amount_invalid']);
      if (typeof body.currency !== 'string' || !/^[A-Z]{3}$/.test(body.currency))
        return requestInvalid(c, ['currency_invalid']);
      const source = body.source ?? {};
      let card: Card | undefined;
      let cvv: string | null = null;
      let sourceId: string;
      /** The wallet authenticated the buyer (its cryptogram): no 3-D Secure challenge. */
      let deviceAuthenticated = false;
      if (source.type === 'token') {
        const entry = tokens.get(source.token);
        if (!entry) return requestInvalid(c, ['token_invalid']);
        if (entry.used) return requestInvalid(c, ['token_used']);
        if (entry.expiresAt < now()) return requestInvalid(c, ['token_expired']);
        entry.used = true;
        card = entry.card;
        cvv = card.cvv;
        deviceAuthenticated = entry.cryptogram;
        sourceId = newId('src');
        sources.set(sourceId, card);
      } else if (source.type === 'id') {
        card = sources.get(source.id);
        if (!card) return requestInvalid(c, ['source_id_invalid']);
        if (source.cvv !== undefined && (typeof source.cvv !== 'string' || !/^\d{3,4}$/.test(source.cvv)))
          return requestInvalid(c, ['cvv_invalid']);
        cvv = source.cvv ?? null;
        sourceId = source.id;
      } else {
        return requestInvalid(c, ['source_type_invalid']);
      }
      const p: Payment = {
        id: newId('pay'),
        sessionId: null,
        actionId: newId('act'),
        amount,
        currency: body.currency,
        reference: typeof body.reference === 'string' ? body.reference : null,
        status: 'Pending',
        approved: false,
        responseCode: null,
        responseSummary: null,
        sourceId,
        card,
        successUrl: typeof body.success_url === 'string' ? body.success_url : null,
        failureUrl: typeof body.failure_url === 'string' ? body.failure_url : null,
        metadata: typeof body.metadata === 'object' && body.metadata ? body.metadata : {},
        customer: typeof body.customer === 'object' ? body.customer : null,
        requestedOn: now(),
        processedOn: null,
        threeDs: null,
        actions: [],
      };
      payments.set(p.id, p);
      const wants3ds = body['3ds']?.enabled === true;
      if (wants3ds && card.number === THREE_DS_CARD && amount > 0 && !deviceAuthenticated) {
        p.sessionId = newId('sid');
        p.threeDs = { enrolled: 'Y', downgraded: false };
        sessions.set(p.sessionId, p.id);
        emit(p);
        return c.json(
          {
            id: p.id,
            status: 'Pending',
            reference: p.reference,
            customer: p.customer ?? undefined,
            '3ds': p.threeDs,
            _links: {
              self: { href: `${origin}/payments/${p.id}` },
              redirect: { href: `${origin}/3ds/${p.sessionId}` },
            },
          },
          202,
        );
      }
      if (wants3ds) p.threeDs = { enrolled: deviceAuthenticated ? 'Y' : 'N', downgraded: false };
      const decline = declineOf(card, cvv, amount);
      if (decline) setStatus(p, 'Declined', false, decline.code, decline.summary);
      else if (amount === 0) setStatus(p, 'Card Verified', true, '10000', 'Approved');
      else setStatus(p, body.capture === true ? 'Captured' : 'Authorized', true, '10000', 'Approved');
      return c.json(paymentJson(p), 201);
    }),
  );

  const find = (id: string) => {
    if (!/^(pay|sid)_(\w{26})$/.test(id)) return undefined;
    const payId = id.startsWith('sid_') ? sessions.get(id) : id;
    const p = payId ? payments.get(payId) : undefined;
    return p ? expire(p) : undefined;
  };

  app.get('/payments/:id', (c) => {
    if (keyOf(c) !== secretKey) return c.body(null, 401);
    const p = find(c.req.param('id'));
    if (!p) return c.json({ message: 'Payment not found' }, 404);
    return c.json(paymentJson(p, c.req.param('id').startsWith('sid_')));
  });

  const action = (path: string, from: Status[], to: Status) =>
    app.post(`/payments/:id/${path}`, (c) =>
      guarded(c, `${path} ${c.req.param('id')}`, () => {
        const p = find(c.req.param('id'));
        if (!p) return c.json({ message: 'Payment not found' }, 404);
        if (!from.includes(p.status))
          return requestInvalid(c, [`${path.replace(/s$/, '')}_not_allowed`], 403);
        setStatus(p, to, true, '10000', 'Approved');
        return c.json(
          {
            action_id: p.actions.at(-1)!.id,
            reference: p.reference,
            _links: { payment: { href: `${origin}/payments/${p.id}` } },
          },
          202,
        );
      }),
    );
  action('captures', ['Authorized'], 'Captured');
  action('voids', ['Authorized'], 'Voided');
  action('refunds', ['Captured'], 'Refunded');

  /* ---- 3-D Secure challenge ---- */

  const challenge = (c: Context) => {
    const sid = c.req.param('sid') ?? '';
    const p = find(sid);
    return p && p.sessionId === sid ? p : undefined;
  };
  const backTo = (url: string | null, sid: string) => {
    if (!url) return null;
    const target = new URL(url);
    target.searchParams.set('cko-session-id', sid);
    return target.toString();
  };

  app.get('/3ds/:sid', (c) => {
    const p = challenge(c);
    if (!p)
      return c.html(
        '<!doctype html><html lang="en"><title>Not found</title><h1>Session not found</h1></html>',
        404,
      );
    const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: p.currency }).format(
      p.amount / 100,
    );
    const open = p.status === 'Pending';
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>3-D Secure check</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
button{font:inherit;padding:.6rem 1.2rem;margin-right:.5rem;border-radius:.4rem;border:1px solid #1a1a1a;cursor:pointer}
.approve{background:#1a1a1a;color:#fff}</style></head>
<body><main>
<h1>3-D Secure check</h1>
<p>Card sandbox: confirm this payment as the card's issuer would.</p>
<dl><dt>Amount</dt><dd>${escapeHtml(amount)}</dd><dt>Merchant reference</dt><dd>${escapeHtml(p.reference ?? '')}</dd>
<dt>Card</dt><dd>${escapeHtml(p.card.scheme)} •••• ${escapeHtml(p.card.last4)}</dd></dl>
${
  open
    ? `<form method="post" action="/3ds/${escapeHtml(p.sessionId!)}">
<button class="approve" name="action" value="approve">Approve</button>
<button name="action" value="fail">Fail</button></form>`
    : `<p role="status">This check is over: the payment is ${escapeHtml(p.status)}.</p>`
}
</main></body></html>`);
  });

  app.post('/3ds/:sid', async (c) => {
    const p = challenge(c);
    if (!p) return c.text('Session not found', 404);
    const form = await c.req.parseBody();
    if (p.status === 'Pending') {
      if (form.action === 'approve') {
        const decline = declineOf(p.card, p.card.cvv, p.amount);
        if (decline) setStatus(p, 'Declined', false, decline.code, decline.summary);
        else setStatus(p, 'Authorized', true, '10000', 'Approved');
      } else {
        // The buyer failed the issuer's check (a sandbox choice of code: authentication failed).
        setStatus(p, 'Declined', false, '20150', 'Card not 3D Secure enabled / authentication failed');
      }
    }
    const target = backTo(p.approved ? p.successUrl : p.failureUrl, p.sessionId!);
    return target ? c.redirect(target, 302) : c.text(`Payment ${p.status}`);
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
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await server.close();
    },
  };
}
