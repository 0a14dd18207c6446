import type { Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { type Card, declineOf, readCard, THREE_DS_CARD } from './cards';
import type { Store } from './store';
import { newId, type Payment, type Status, TOKEN_TTL_MS } from './types';
import { readApplePayTokenData, readGooglePayTokenData, type WalletCard } from './wallets';

const keyOf = (c: Context) => (c.req.header('Authorization') ?? '').replace(/^Bearer\s+/i, '');
const requestInvalid = (c: Context, codes: string[], status: 422 | 403 = 422) =>
  c.json({ request_id: newId('req'), error_type: 'request_invalid', error_codes: codes }, status);

/**
 * The API's routes: `POST /tokens` (public key, CORS open), `POST /payments`, `GET /payments/{id}`
 * and `POST /payments/{id}/captures|voids|refunds` (secret key, idempotent by `Cko-Idempotency-Key`).
 */
export function paymentRoutes(
  app: Hono,
  options: { publicKey: string; secretKey: string; now: () => Date; origin: () => string; store: Store },
) {
  const { publicKey, secretKey, now, store } = options;
  const { tokens, sources, payments, sessions, idempotent, emit, setStatus, paymentJson, find } = store;
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
              self: { href: `${options.origin()}/payments/${p.id}` },
              redirect: { href: `${options.origin()}/3ds/${p.sessionId}` },
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
            _links: { payment: { href: `${options.origin()}/payments/${p.id}` } },
          },
          202,
        );
      }),
    );
  action('captures', ['Authorized'], 'Captured');
  action('voids', ['Authorized'], 'Voided');
  action('refunds', ['Captured'], 'Refunded');
}
