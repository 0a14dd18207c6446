import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  type Sandbox,
  startCheckoutSandbox,
} from '../../sandbox/checkout-com/index';
import { createCheckoutComProvider } from '../../server/payments/checkout-com';
import {
  type CardProvider,
  ProviderRefusedError,
  ProviderUnavailableError,
} from '../../server/payments/provider';

/**
 * Our Checkout.com adapter (the official checkout-sdk-node pointed at another host) against the
 * embedded sandbox over real HTTP: tokens, payments, declines, 3-D Secure, captures, voids,
 * refunds, idempotency keys and signed webhooks with retries.
 */

const WEBHOOK_KEY = 'adapter-test-signature-key';
const future = { expiry_month: 12, expiry_year: new Date().getUTCFullYear() + 2 };

interface Received {
  body: string;
  signature: string | undefined;
}

let sandbox: Sandbox;
let provider: CardProvider;
let receiver: Server;
const received: Received[] = [];
/** Status answers the webhook receiver gives, one per delivery, then 200. */
const answers: number[] = [];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// biome-ignore lint/suspicious/noExplicitAny: the token answer read field by field
type Json = any;

async function token(number: string, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${sandbox.url}/tokens`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${SANDBOX_PUBLIC_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'card', number, cvv: '123', ...future, ...extra }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, Json> };
}

const pay = async (number: string, over: Partial<Parameters<CardProvider['requestPayment']>[0]> = {}) =>
  provider.requestPayment({
    source: { type: 'token', token: (await token(number)).body.token },
    amount: 2500,
    currency: 'USD',
    reference: `order-${Math.random().toString(36).slice(2)}`,
    capture: false,
    threeDs: true,
    successUrl: 'http://shop.test/ordercomplete/x?e=blueprint',
    failureUrl: 'http://shop.test/checkoutcomfailed/x',
    idempotencyKey: crypto.randomUUID(),
    ...over,
  });

const eventsOf = (paymentId: string) =>
  received.map((r) => JSON.parse(r.body)).filter((e) => e.data.id === paymentId);

async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    const body = await readBody(req);
    received.push({ body, signature: req.headers['cko-signature'] as string | undefined });
    res.statusCode = answers.shift() ?? 200;
    res.end();
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  sandbox = await startCheckoutSandbox({
    port: 0,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    webhookSignatureKey: WEBHOOK_KEY,
    retrySchedule: [0.05, 0.05, 0.05],
  });
  provider = createCheckoutComProvider({
    secretKey: SANDBOX_SECRET_KEY,
    publicKey: SANDBOX_PUBLIC_KEY,
    apiUrl: sandbox.url,
    webhookSignatureKey: WEBHOOK_KEY,
  });
});
afterAll(async () => {
  await sandbox.close();
  await new Promise((r) => receiver.close(r));
});

describe('the card sandbox through the official SDK', () => {
  it('tokenizes with the public key only, from any origin (CORS), single use', async () => {
    const preflight = await fetch(`${sandbox.url}/tokens`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://shop.test',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const ok = await token('4242 4242 4242 4242');
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ type: 'card', scheme: 'VISA', last4: '4242', bin: '424242' });
    expect(ok.body.token).toMatch(/^tok_[a-z2-7]{26}$/);
    expect(Date.parse(ok.body.expires_on) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect((await token('378282246310005')).body.scheme).toBe('AMEX');
    expect((await token('4242424242424241')).body.error_codes).toEqual(['card_number_invalid']);
    expect((await token('4242424242424242', { expiry_year: 2020 })).body.error_codes).toEqual([
      'card_expired',
    ]);
    const secretKeyUsed = await fetch(`${sandbox.url}/tokens`, {
      method: 'POST',
      headers: { Authorization: SANDBOX_SECRET_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'card', number: '4242424242424242', ...future }),
    });
    expect(secretKeyUsed.status).toBe(401);

    const once = (await token('4242424242424242')).body.token;
    const first = { source: { type: 'token' as const, token: once }, idempotencyKey: crypto.randomUUID() };
    await provider.requestPayment({ ...(await baseRequest()), ...first });
    const again = provider.requestPayment({
      ...(await baseRequest()),
      ...first,
      idempotencyKey: crypto.randomUUID(),
    });
    await expect(again).rejects.toMatchObject({ errorCodes: ['token_used'], status: 422 });
    await expect(again).rejects.toBeInstanceOf(ProviderRefusedError);
  });

  it('authorizes without 3-D Secure, declines by card, CVV and amount (a decline is not an error)', async () => {
    const approved = await pay('4242424242424242');
    expect(approved).toMatchObject({
      status: 'Authorized',
      approved: true,
      responseCode: '10000',
      redirectUrl: null,
    });
    expect(approved.id).toMatch(/^pay_[a-z2-7]{26}$/);
    expect(approved.source).toMatchObject({ last4: '4242', scheme: 'VISA', expiryMonth: 12 });
    expect(approved.source!.id).toMatch(/^src_/);
    expect(await pay('5436031030606378')).toMatchObject({ approved: true, source: { scheme: 'MASTERCARD' } });
    expect(await pay('6011111111111117')).toMatchObject({ approved: true, source: { scheme: 'DISCOVER' } });
    expect(await pay('4544249167673670')).toMatchObject({
      status: 'Declined',
      approved: false,
      responseCode: '20005',
    });
    expect(await pay('4095254802642505')).toMatchObject({ approved: false, responseCode: '20051' });
    expect(await pay('4242424242424242', { amount: 1254 })).toMatchObject({
      approved: false,
      responseCode: '20054',
    });
    // A saved card (its source) is paid again with its CVV; CVV 100 fails the check.
    const source = approved.source!.id!;
    const reuse = (cvv: string) => pay('4242424242424242', { source: { type: 'id', id: source, cvv } });
    expect(await reuse('123')).toMatchObject({ approved: true });
    expect(await reuse('100')).toMatchObject({ approved: false, responseCode: '20087' });
    // Zero amount: the card is verified, nothing is charged.
    expect(await pay('4242424242424242', { amount: 0 })).toMatchObject({
      status: 'Card Verified',
      approved: true,
    });
  });

  it('answers a repeated idempotency key with the first payment', async () => {
    const key = crypto.randomUUID();
    const tok = (await token('4242424242424242')).body.token;
    const request = {
      ...(await baseRequest()),
      source: { type: 'token' as const, token: tok },
      idempotencyKey: key,
    };
    const first = await provider.requestPayment(request);
    const second = await provider.requestPayment(request);
    expect(second.id).toBe(first.id);
  });

  it('sends the buyer through the 3-D Secure challenge and back with cko-session-id', async () => {
    const pending = await pay('4485040371536584');
    expect(pending).toMatchObject({ status: 'Pending', approved: false });
    expect(pending.redirectUrl).toMatch(new RegExp(`^${sandbox.url}/3ds/sid_[a-z2-7]{26}$`));
    const page = await fetch(pending.redirectUrl!);
    const html = await page.text();
    expect(html).toContain('<h1>3-D Secure check</h1>');
    expect(html).toContain('$25.00');
    const answer = await fetch(pending.redirectUrl!, {
      method: 'POST',
      body: new URLSearchParams({ action: 'approve' }),
      redirect: 'manual',
    });
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe('http://shop.test/ordercomplete/x');
    expect(back.searchParams.get('e')).toBe('blueprint');
    const sid = back.searchParams.get('cko-session-id')!;
    expect(sid).toMatch(/^sid_/);
    expect(await provider.getPayment(sid)).toMatchObject({
      id: pending.id,
      status: 'Authorized',
      approved: true,
    });

    const failing = await pay('4485040371536584');
    const failed = await fetch(failing.redirectUrl!, {
      method: 'POST',
      body: new URLSearchParams({ action: 'fail' }),
      redirect: 'manual',
    });
    expect(failed.headers.get('location')).toMatch(
      /^http:\/\/shop\.test\/checkoutcomfailed\/x\?cko-session-id=sid_/,
    );
    expect(await provider.getPayment(failing.id)).toMatchObject({ status: 'Declined', approved: false });
    // The challenge is over: the page says so and offers no buttons.
    expect(await (await fetch(failing.redirectUrl!)).text()).toContain('This check is over');
    await expect(provider.getPayment('pay_unknownunknownunknownunkn')).rejects.toBeInstanceOf(
      ProviderRefusedError,
    );
  });

  it('captures, voids and refunds once per key, and refuses what the status does not allow', async () => {
    const a = await pay('4242424242424242');
    await provider.capture(a.id, `capture-${a.id}`);
    await provider.capture(a.id, `capture-${a.id}`);
    expect((await provider.getPayment(a.id)).status).toBe('Captured');
    await expect(provider.void(a.id, `void-${a.id}`)).rejects.toMatchObject({ status: 403 });
    await provider.refund(a.id, `refund-${a.id}`);
    expect((await provider.getPayment(a.id)).status).toBe('Refunded');
    const b = await pay('4242424242424242');
    await provider.void(b.id, `void-${b.id}`);
    expect((await provider.getPayment(b.id)).status).toBe('Voided');
    await expect(provider.capture(b.id, `capture-${b.id}`)).rejects.toMatchObject({ status: 403 });
  });

  it('signs each webhook with HMAC-SHA256 of the raw body, and retries a failed delivery', async () => {
    answers.push(500, 500);
    const p = await pay('4242424242424242');
    await until(() => eventsOf(p.id).length >= 3);
    const deliveries = received.filter((r) => JSON.parse(r.body).data.id === p.id);
    // The same event three times: two failures, then accepted.
    expect(new Set(deliveries.map((d) => JSON.parse(d.body).id)).size).toBe(1);
    expect(JSON.parse(deliveries[0]!.body)).toMatchObject({
      type: 'payment_approved',
      version: '1.0.29',
      data: { id: p.id, amount: 2500, response_code: '10000' },
    });
    for (const d of deliveries) expect(provider.verifyWebhook(d.body, d.signature)).toBe(true);
    // Forged: another key, a changed body, or none.
    const forged = createCheckoutComProvider({
      secretKey: SANDBOX_SECRET_KEY,
      publicKey: SANDBOX_PUBLIC_KEY,
      apiUrl: sandbox.url,
      webhookSignatureKey: 'other',
    });
    expect(forged.verifyWebhook(deliveries[0]!.body, deliveries[0]!.signature)).toBe(false);
    expect(provider.verifyWebhook(`${deliveries[0]!.body} `, deliveries[0]!.signature)).toBe(false);
    expect(provider.verifyWebhook(deliveries[0]!.body, undefined)).toBe(false);
    expect(provider.verifyWebhook(deliveries[0]!.body, 'zz')).toBe(false);
  });

  it('sends a payment once more, with the same idempotency key, when its connection is reset unanswered', async () => {
    // A stand-in in front of the sandbox resets the first payment request's connection without an
    // answer (as a server does to a kept-alive connection it has just closed as idle), then passes
    // every request on.
    const keys: (string | undefined)[] = [];
    let reset = false;
    const front = createServer(async (req, res) => {
      const body = await readBody(req);
      if (req.url === '/payments') keys.push(req.headers['cko-idempotency-key'] as string | undefined);
      if (req.url === '/payments' && !reset) {
        reset = true;
        req.socket.resetAndDestroy();
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => name === 'authorization' || name.startsWith('cko-')),
      ) as Record<string, string>;
      const answer = await fetch(`${sandbox.url}${req.url}`, {
        method: req.method,
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: req.method === 'GET' ? undefined : body,
      });
      res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(await answer.text());
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    try {
      const behind = createCheckoutComProvider({
        secretKey: SANDBOX_SECRET_KEY,
        publicKey: SANDBOX_PUBLIC_KEY,
        apiUrl: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
        webhookSignatureKey: WEBHOOK_KEY,
      });
      const paid = await behind.requestPayment({
        ...(await baseRequest()),
        source: { type: 'token', token: (await token('4242424242424242')).body.token },
        idempotencyKey: 'reset-once',
      });
      expect(paid).toMatchObject({ status: 'Authorized', approved: true });
      expect(keys).toEqual(['reset-once', 'reset-once']);
      expect(await provider.getPayment(paid.id)).toMatchObject({ id: paid.id, status: 'Authorized' });
    } finally {
      await new Promise((r) => front.close(r));
    }
  });

  it('reports an unreachable provider as unavailable, not as a refusal', async () => {
    const down = createCheckoutComProvider({
      secretKey: SANDBOX_SECRET_KEY,
      publicKey: SANDBOX_PUBLIC_KEY,
      apiUrl: 'http://127.0.0.1:9',
      webhookSignatureKey: WEBHOOK_KEY,
    });
    await expect(down.getPayment('pay_unknownunknownunknownunkn')).rejects.toBeInstanceOf(
      ProviderUnavailableError,
    );
    expect(provider.publicConfig()).toEqual({ publicKey: SANDBOX_PUBLIC_KEY, apiUrl: sandbox.url });
  });
});

async function baseRequest() {
  return {
    amount: 2500,
    currency: 'USD',
    reference: 'order-base',
    capture: false,
    threeDs: false,
    successUrl: 'http://shop.test/ok',
    failureUrl: 'http://shop.test/failed',
  };
}
