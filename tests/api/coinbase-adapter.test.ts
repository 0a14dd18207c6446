import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_VERSION,
  type CoinbaseSandbox,
  SANDBOX_API_KEY,
  startCoinbaseSandbox,
} from '../../sandbox/coinbase-commerce/index';
import {
  createCoinbaseProvider,
  signatureMatches,
  webhookSignature,
} from '../../server/payments/coinbase-commerce';
import {
  type CryptoChargeRequest,
  type CryptoProvider,
  CryptoProviderRefusedError,
  CryptoProviderUnavailableError,
} from '../../server/payments/crypto-provider';

/**
 * Our Coinbase Commerce adapter (ky over HTTP, legacy Charge API) against the crypto sandbox over
 * real HTTP: charges created, read by id and by code, canceled; refusals; the hosted page driven by
 * posting its form (pay, underpay, expire, cancel); expiry by time; signed webhooks with retries
 * and at-least-once copies; and the signature against the official SDK's published test vector.
 */

const WEBHOOK_SECRET = 'adapter-test-webhook-secret';
const CONFIRM_AFTER_MS = 400;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Received {
  body: string;
  signature: string | undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: answers and envelopes read field by field
type Json = any;

let sandbox: CoinbaseSandbox;
let provider: CryptoProvider;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Status answers the webhook receiver gives to deliveries for an order id, one each, then 200. */
const answers = new Map<string, number[]>();
/** Added to the sandbox's clock (to let charges expire by time). */
let skewMs = 0;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const request = (over: Partial<CryptoChargeRequest> = {}): CryptoChargeRequest => ({
  name: 'Genesis Blueprint #12',
  description: 'One edition of Genesis Blueprint',
  amount: 1250,
  currency: 'USD',
  metadata: { vitrineChargeId: crypto.randomUUID(), orderId: crypto.randomUUID() },
  redirectUrl: 'http://shop.test/ordercomplete/x?e=blueprint',
  cancelUrl: 'http://shop.test/coinbasecanceled/x',
  ...over,
});

/** The raw API, for what the adapter does not expose. */
async function raw(path: string, init: RequestInit = {}, headers: Record<string, string> = {}) {
  const res = await fetch(`${sandbox.url}${path}`, {
    ...init,
    headers: {
      'X-CC-Api-Key': SANDBOX_API_KEY,
      'X-CC-Version': API_VERSION,
      'Content-Type': 'application/json',
      ...headers,
    },
  });
  return { status: res.status, body: (await res.json()) as Json };
}

const envelopesOf = (chargeId: string): Json[] =>
  received.map((r) => JSON.parse(r.body)).filter((e) => e.event?.data?.id === chargeId);
const typesOf = (chargeId: string) => envelopesOf(chargeId).map((e) => e.event.type);

async function until(check: () => boolean | Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The hosted page's form: its action and the values its controls offer. */
async function hostedForm(hostedUrl: string | null) {
  if (!hostedUrl) throw new Error('the charge has no hosted page');
  const res = await fetch(hostedUrl);
  expect(res.status).toBe(200);
  const html = await res.text();
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  expect(action).toBeDefined();
  return {
    html,
    url: new URL(action!, hostedUrl).toString(),
    coins: [...html.matchAll(/<input type="radio" name="coin" value="(\w+)"/g)].map((m) => m[1]),
    actions: [...html.matchAll(/<button[^>]* name="action" value="(\w+)">([^<]+)<\/button>/g)].map((m) => ({
      value: m[1],
      label: m[2],
    })),
  };
}

async function submit(hostedUrl: string | null, action: string, coin = 'ethereum') {
  const form = await hostedForm(hostedUrl);
  expect(form.actions.map((a) => a.value)).toContain(action);
  return fetch(form.url, {
    method: 'POST',
    body: new URLSearchParams({ coin, action }),
    redirect: 'manual',
  });
}

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    const body = await readBody(req);
    received.push({ body, signature: req.headers['x-cc-webhook-signature'] as string | undefined });
    let orderId: string | undefined;
    try {
      orderId = JSON.parse(body).event?.data?.metadata?.orderId;
    } catch {}
    res.statusCode = (orderId && answers.get(orderId)?.shift()) || 200;
    res.end();
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/coinbase`;
  sandbox = await startCoinbaseSandbox({
    port: 0,
    webhookUrl: receiverUrl,
    webhookSecret: WEBHOOK_SECRET,
    retrySchedule: [0.05, 0.05, 0.05],
    confirmAfterMs: CONFIRM_AFTER_MS,
    now: () => new Date(Date.now() + skewMs),
  });
  provider = createCoinbaseProvider({
    apiKey: SANDBOX_API_KEY,
    apiUrl: sandbox.url,
    webhookSecret: WEBHOOK_SECRET,
  });
});
afterAll(async () => {
  await sandbox.close();
  await new Promise((r) => receiver.close(r));
});

describe('the crypto sandbox through our adapter', () => {
  it('creates a charge in the legacy shape and reads it back by id and by code', async () => {
    const req = request();
    const charge = await provider.createCharge(req);
    expect(charge).toMatchObject({
      status: 'NEW',
      context: null,
      amount: 1250,
      currency: 'USD',
      paid: 0,
      metadata: req.metadata,
    });
    expect(charge.id).toMatch(UUID);
    expect(charge.code).toMatch(/^[A-Z0-9]{8}$/);
    expect(charge.hostedUrl).toBe(`${sandbox.url}/charges/${charge.code}`);
    expect(charge.expiresAt.getTime() - charge.createdAt.getTime()).toBe(60 * 60_000);
    expect(await provider.getCharge(charge.code)).toEqual(charge);
    expect(await provider.getCharge(charge.id)).toEqual(charge);

    const { status, body } = await raw(`/charges/${charge.id}`);
    expect(status).toBe(200);
    expect(body.warnings).toEqual([]);
    expect(body.data).toMatchObject({
      id: charge.id,
      resource: 'charge',
      code: charge.code,
      name: req.name,
      description: req.description,
      hosted_url: charge.hostedUrl,
      pricing_type: 'fixed_price',
      pricing: {
        local: { amount: '12.50', currency: 'USD' },
        ethereum: { amount: '0.00625000', currency: 'ETH' },
        bitcoin: { amount: '0.00031250', currency: 'BTC' },
        bitcoincash: { amount: '0.05000000', currency: 'BCH' },
        usdc: { amount: '12.500000', currency: 'USDC' },
      },
      payments: [],
      metadata: req.metadata,
      redirects: { success_url: req.redirectUrl, cancel_url: req.cancelUrl },
    });
    expect(body.data.timeline).toEqual([{ time: body.data.created_at, status: 'NEW' }]);
    expect(body.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Object.keys(body.data.addresses).sort()).toEqual(['bitcoin', 'bitcoincash', 'ethereum', 'usdc']);
    expect(body.data.addresses.ethereum).toMatch(/^0x[0-9a-f]{40}$/);

    // Without X-CC-Version the provider serves its version and says so.
    const unversioned = await fetch(`${sandbox.url}/charges/${charge.id}`, {
      headers: { 'X-CC-Api-Key': SANDBOX_API_KEY },
    });
    expect(((await unversioned.json()) as Json).warnings).toEqual([
      'Missing X-CC-Version header; serving latest API version (2018-03-22)',
    ]);

    // Whole cents travel as exact decimal strings.
    for (const [cents, amount] of [
      [1, '0.01'],
      [10, '0.10'],
      [100, '1.00'],
      [123_456_789, '1234567.89'],
    ] as const) {
      const c = await provider.createCharge(request({ amount: cents }));
      expect(c.amount).toBe(cents);
      expect((await raw(`/charges/${c.id}`)).body.data.pricing.local.amount).toBe(amount);
    }
  });

  it('reads a charge answered without a hosted page: hostedUrl null, and no page serves it', async () => {
    sandbox.setHostedPages(false);
    try {
      const charge = await provider.createCharge(request());
      expect(charge).toMatchObject({ status: 'NEW', hostedUrl: null, amount: 1250 });
      const { body } = await raw(`/charges/${charge.id}`);
      expect(body.data.code).toBe(charge.code);
      expect(body.data).not.toHaveProperty('hosted_url');
      expect((await fetch(`${sandbox.url}/charges/${charge.code}`)).status).toBe(404);
      expect(await provider.getCharge(charge.code)).toEqual(charge);
    } finally {
      sandbox.setHostedPages(true);
    }
    expect((await provider.createCharge(request())).hostedUrl).toMatch(/\/charges\/[A-Z0-9]{8}$/);
  });

  it('refuses bad input, a bad key and unknown charges; an unreachable provider is unavailable', async () => {
    const refused = (p: Promise<unknown>, status: number, errorType: string) =>
      expect(p).rejects.toSatisfy(
        (e) => e instanceof CryptoProviderRefusedError && e.status === status && e.errorType === errorType,
      );
    await refused(provider.createCharge(request({ name: '' })), 400, 'invalid_request');
    await refused(provider.createCharge(request({ name: 'x'.repeat(101) })), 400, 'invalid_request');
    await refused(provider.createCharge(request({ redirectUrl: 'not a url' })), 400, 'invalid_request');
    await refused(
      provider.createCharge(request({ metadata: { orderId: 12 } as unknown as Record<string, string> })),
      400,
      'invalid_request',
    );
    await refused(provider.createCharge(request({ currency: 'EUR' as 'USD' })), 400, 'invalid_request');
    // Not whole positive cents: refused before asking.
    await refused(provider.createCharge(request({ amount: 0 })), 400, 'invalid_request');
    await refused(provider.createCharge(request({ amount: 12.5 })), 400, 'invalid_request');

    const base = {
      name: 'n',
      description: 'd',
      pricing_type: 'fixed_price',
      local_price: { amount: '1.00', currency: 'USD' },
    };
    for (const body of [
      { ...base, pricing_type: 'no_price' },
      { ...base, local_price: { amount: 1, currency: 'USD' } },
      { ...base, local_price: { amount: '1.005', currency: 'USD' } },
      { ...base, local_price: { amount: '-1.00', currency: 'USD' } },
      { ...base, description: undefined },
    ]) {
      const res = await raw('/charges', { method: 'POST', body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('invalid_request');
      expect(typeof res.body.error.message).toBe('string');
    }
    expect((await raw('/charges', { method: 'POST', body: JSON.stringify(base) })).status).toBe(201);

    const badKey = createCoinbaseProvider({
      apiKey: 'not-the-key',
      apiUrl: sandbox.url,
      webhookSecret: WEBHOOK_SECRET,
    });
    await refused(badKey.createCharge(request()), 401, 'authorization_error');
    const existing = await provider.createCharge(request());
    await refused(badKey.getCharge(existing.id), 401, 'authorization_error');
    await refused(badKey.cancelCharge(existing.id), 401, 'authorization_error');
    const rawBad = await raw(`/charges/${existing.id}`, {}, { 'X-CC-Api-Key': 'nope' });
    expect(rawBad).toMatchObject({ status: 401, body: { error: { type: 'authorization_error' } } });

    await refused(provider.getCharge(crypto.randomUUID()), 404, 'not_found');
    await refused(provider.getCharge('ZZZZZZZZ'), 404, 'not_found');
    await refused(provider.getCharge('../charges'), 404, 'not_found');

    const down = createCoinbaseProvider({
      apiKey: SANDBOX_API_KEY,
      apiUrl: 'http://127.0.0.1:9',
      webhookSecret: WEBHOOK_SECRET,
    });
    await expect(down.getCharge(existing.id)).rejects.toBeInstanceOf(CryptoProviderUnavailableError);
    await expect(down.createCharge(request())).rejects.toBeInstanceOf(CryptoProviderUnavailableError);
  });

  it('cancels only a NEW charge', async () => {
    const charge = await provider.createCharge(request());
    const canceled = await provider.cancelCharge(charge.code);
    expect(canceled).toMatchObject({ id: charge.id, status: 'CANCELED', paid: 0 });
    await expect(provider.cancelCharge(charge.id)).rejects.toMatchObject({
      status: 400,
      errorType: 'invalid_request',
    });
    // The hosted page only says where the charge stands, with the way back to the shop.
    const page = await (await fetch(charge.hostedUrl!)).text();
    expect(page).toContain('<h1>Charge canceled</h1>');
    expect(page).toContain('href="http://shop.test/coinbasecanceled/x"');
    expect(page).not.toContain('<form');

    const paid = await provider.createCharge(request());
    await submit(paid.hostedUrl, 'pay');
    await expect(provider.cancelCharge(paid.id)).rejects.toBeInstanceOf(CryptoProviderRefusedError);
  });

  it('shows an accessible hosted page with the amount, a coin picker and the network warning', async () => {
    const charge = await provider.createCharge(request());
    const form = await hostedForm(charge.hostedUrl);
    expect(form.html).toContain('<html lang="en">');
    expect(form.html).toMatch(/<main>[\s\S]*<h1>Pay \$12\.50 USD<\/h1>[\s\S]*<\/main>/);
    expect(form.html).toContain('<legend>Pay with</legend>');
    expect(form.coins).toEqual(['ethereum', 'bitcoin', 'bitcoincash', 'usdc']);
    // Every radio button sits inside its label, which names the coin and the amount.
    expect(form.html.match(/<label><input type="radio"/g)).toHaveLength(4);
    for (const text of ['(ETH): 0.00625000 ETH', '(BTC): 0.00031250 BTC', '(BCH): 0.05000000 BCH'])
      expect(form.html).toContain(text);
    expect(form.html).toMatch(/unsupported\s+network[\s\S]*funds are lost/);
    expect(form.actions).toEqual([
      { value: 'pay', label: 'Pay' },
      { value: 'underpay', label: 'Underpay' },
      { value: 'expire', label: 'Let it expire' },
      { value: 'cancel', label: 'Cancel' },
    ]);
    // Only codes name hosted pages.
    expect((await fetch(`${sandbox.url}/charges/${charge.id}`)).status).toBe(404);
    expect((await fetch(`${sandbox.url}/charges/AAAAAAAA`)).status).toBe(404);
  });

  it('pays in full: PENDING at once, COMPLETED after the confirmations, back to redirect_url', async () => {
    const charge = await provider.createCharge(request());
    const res = await submit(charge.hostedUrl, 'pay', 'bitcoin');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('http://shop.test/ordercomplete/x?e=blueprint');
    expect(await provider.getCharge(charge.id)).toMatchObject({ status: 'PENDING', paid: 1250 });
    await until(async () => (await provider.getCharge(charge.id)).status === 'COMPLETED');
    expect(await provider.getCharge(charge.id)).toMatchObject({
      status: 'COMPLETED',
      paid: 1250,
      context: null,
    });

    const data = (await raw(`/charges/${charge.id}`)).body.data;
    expect(data.timeline.map((t: Json) => t.status)).toEqual(['NEW', 'PENDING', 'COMPLETED']);
    expect(data.payments).toHaveLength(1);
    expect(data.payments[0]).toMatchObject({
      network: 'bitcoin',
      status: 'CONFIRMED',
      value: {
        local: { amount: '12.50', currency: 'USD' },
        crypto: { amount: '0.00031250', currency: 'BTC' },
      },
    });
    expect(data.payments[0].transaction_id).toMatch(/^[0-9a-f]{64}$/);
    expect(data.confirmed_at).toMatch(/Z$/);

    await until(() => typesOf(charge.id).length >= 3);
    expect(typesOf(charge.id)).toEqual(['charge:created', 'charge:pending', 'charge:confirmed']);
    const page = await (await fetch(charge.hostedUrl!)).text();
    expect(page).toContain('<h1>Payment complete</h1>');
    // Paying twice is not offered: the page answers with where the charge stands.
    const again = await fetch(charge.hostedUrl!, {
      method: 'POST',
      body: new URLSearchParams({ coin: 'ethereum', action: 'pay' }),
      redirect: 'manual',
    });
    expect(again.status).toBe(409);
  });

  it('underpays: UNRESOLVED with context UNDERPAID, half the price paid', async () => {
    const charge = await provider.createCharge(request({ amount: 1255 }));
    const res = await submit(charge.hostedUrl, 'underpay', 'usdc');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(charge.hostedUrl);
    expect(await provider.getCharge(charge.id)).toMatchObject({
      status: 'UNRESOLVED',
      context: 'UNDERPAID',
      amount: 1255,
      paid: 627,
    });
    const data = (await raw(`/charges/${charge.id}`)).body.data;
    expect(data.timeline.at(-1)).toMatchObject({ status: 'UNRESOLVED', context: 'UNDERPAID' });
    expect(data.payments[0]).toMatchObject({
      network: 'ethereum',
      value: { local: { amount: '6.27', currency: 'USD' }, crypto: { amount: '6.270000', currency: 'USDC' } },
    });
    const page = await (await fetch(charge.hostedUrl!)).text();
    expect(page).toContain('<h1>Payment needs attention</h1>');
    expect(page).toContain('Received $6.27 of $12.55 (UNDERPAID)');
    expect(page).toContain('href="http://shop.test/ordercomplete/x?e=blueprint"');
    await until(() => typesOf(charge.id).length >= 2);
    expect(typesOf(charge.id)).toEqual(['charge:created', 'charge:failed']);
  });

  it('lets a charge expire from the page, and by time when read after its 60 minutes', async () => {
    const charge = await provider.createCharge(request());
    const res = await submit(charge.hostedUrl, 'expire');
    expect(res.status).toBe(303);
    expect(await provider.getCharge(charge.id)).toMatchObject({ status: 'EXPIRED', paid: 0 });
    const page = await (await fetch(res.headers.get('location')!)).text();
    expect(page).toContain('<h1>Charge expired</h1>');
    expect(page).toContain('href="http://shop.test/ordercomplete/x?e=blueprint"');

    const late = await provider.createCharge(request());
    skewMs = 61 * 60_000;
    try {
      expect(await provider.getCharge(late.code)).toMatchObject({ status: 'EXPIRED' });
      expect((await fetch(late.hostedUrl!)).status).toBe(200);
      expect(await (await fetch(late.hostedUrl!)).text()).toContain('<h1>Charge expired</h1>');
      await expect(provider.cancelCharge(late.id)).rejects.toMatchObject({ status: 400 });
    } finally {
      skewMs = 0;
    }
    await until(() => typesOf(late.id).length >= 2);
    expect(typesOf(late.id)).toEqual(['charge:created', 'charge:failed']);
    expect(envelopesOf(late.id)[1].event.data.timeline.at(-1).status).toBe('EXPIRED');
  });

  it('cancels from the page and sends the buyer to cancel_url', async () => {
    const charge = await provider.createCharge(request());
    const res = await submit(charge.hostedUrl, 'cancel');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('http://shop.test/coinbasecanceled/x');
    expect(await provider.getCharge(charge.id)).toMatchObject({ status: 'CANCELED' });
    await until(() => typesOf(charge.id).length >= 2);
    expect(typesOf(charge.id)).toEqual(['charge:created', 'charge:failed']);
  });

  it('signs every webhook; the adapter verifies them and rejects tampered or forged ones', async () => {
    const req = request();
    const charge = await provider.createCharge(req);
    await submit(charge.hostedUrl, 'pay');
    await until(() => typesOf(charge.id).length >= 3);
    const deliveries = received.filter((r) => JSON.parse(r.body).event?.data?.id === charge.id);
    for (const d of deliveries) {
      expect(d.signature).toBe(webhookSignature(d.body, WEBHOOK_SECRET));
      const event = provider.verifyWebhook(d.body, d.signature);
      expect(event).not.toBeNull();
      expect(event!.id).toMatch(UUID);
      expect(event!.charge).toMatchObject({ id: charge.id, code: charge.code, metadata: req.metadata });
    }
    const envelope = JSON.parse(deliveries[0]!.body);
    expect(Object.keys(envelope)).toEqual(['id', 'scheduled_for', 'attempt_number', 'event']);
    expect(envelope).toMatchObject({
      attempt_number: 1,
      event: { resource: 'event', type: 'charge:created', api_version: '2018-03-22' },
    });
    const events = deliveries.map((d) => provider.verifyWebhook(d.body, d.signature)!);
    expect(events.map((e) => [e.type, e.charge.status, e.charge.paid])).toEqual([
      ['charge:created', 'NEW', 0],
      ['charge:pending', 'PENDING', 1250],
      ['charge:confirmed', 'COMPLETED', 1250],
    ]);

    const { body, signature } = deliveries[0]!;
    const tampered = body.replace('"attempt_number":1', '"attempt_number":2');
    expect(tampered).not.toBe(body);
    expect(provider.verifyWebhook(tampered, signature)).toBeNull();
    expect(provider.verifyWebhook(`${body} `, signature)).toBeNull();
    expect(provider.verifyWebhook(body, webhookSignature(body, 'another-secret'))).toBeNull();
    expect(provider.verifyWebhook(body, undefined)).toBeNull();
    expect(provider.verifyWebhook(body, '')).toBeNull();
    expect(provider.verifyWebhook(body, signature!.slice(2))).toBeNull();
    expect(provider.verifyWebhook(body, 'zz'.repeat(32))).toBeNull();
    // Upper-case hex is the same signature.
    expect(provider.verifyWebhook(body, signature!.toUpperCase())).not.toBeNull();
    // Signed but not an event, or not JSON: still nothing to apply.
    for (const other of [
      '{"id":1,"attempt_number":1}',
      'Not json',
      '{"event":{"id":"x","type":"charge:created"}}',
    ])
      expect(provider.verifyWebhook(other, webhookSignature(other, WEBHOOK_SECRET))).toBeNull();
  });

  it('retries a failed delivery: the same event, the next attempt number', async () => {
    const req = request();
    answers.set(req.metadata.orderId!, [500]);
    const before = sandbox.deliveries.length;
    const charge = await provider.createCharge(req);
    await until(() => envelopesOf(charge.id).length >= 2);
    const [first, second] = envelopesOf(charge.id);
    expect(first.event.id).toBe(second.event.id);
    expect(first.id).toBe(second.id);
    expect([first.attempt_number, second.attempt_number]).toEqual([1, 2]);
    const bodies = received.filter((r) => JSON.parse(r.body).event?.data?.id === charge.id);
    for (const b of bodies) expect(provider.verifyWebhook(b.body, b.signature)?.id).toBe(first.event.id);
    // The sandbox logs a delivery once it has read the answer, a moment after the receiver has the body.
    await until(() => sandbox.deliveries.slice(before).filter((d) => d.id === first.event.id).length >= 2);
    expect(sandbox.deliveries.slice(before).filter((d) => d.id === first.event.id)).toEqual([
      { id: first.event.id, type: 'charge:created', status: 500 },
      { id: first.event.id, type: 'charge:created', status: 200 },
    ]);
  });

  it('delivers each event as many times as asked (deliveries: 10), each copy signed', async () => {
    const twice = await startCoinbaseSandbox({
      port: 0,
      webhookUrl: receiverUrl,
      webhookSecret: WEBHOOK_SECRET,
      deliveries: 10,
    });
    try {
      const via = createCoinbaseProvider({
        apiKey: SANDBOX_API_KEY,
        apiUrl: twice.url,
        webhookSecret: WEBHOOK_SECRET,
      });
      const charge = await via.createCharge(request());
      await until(() => envelopesOf(charge.id).length >= 10);
      const bodies = received.filter((r) => JSON.parse(r.body).event?.data?.id === charge.id);
      expect(bodies).toHaveLength(10);
      const events = bodies.map((b) => via.verifyWebhook(b.body, b.signature));
      expect(events.every((e) => e?.type === 'charge:created')).toBe(true);
      // One event, ten deliveries: applying by event id applies it once.
      expect(new Set(events.map((e) => e!.id)).size).toBe(1);
      await until(() => twice.deliveries.length >= 10);
      expect(twice.deliveries).toHaveLength(10);
      expect(twice.deliveries.every((d) => d.status === 200)).toBe(true);
    } finally {
      await twice.close();
    }
  });

  it("matches the official SDK's published signature test vector", () => {
    // coinbase/coinbase-commerce-node test/testWebhook.spec.js, verbatim.
    const secret = '30291a20-0bd1-4267-9b0f-e6e7b123c0bf';
    const payload =
      '{"id":1,"scheduled_for":"2017-01-31T20:50:02Z","attempt_number":1,"event":{"id":"24934862-d980-46cb-9402-43c81b0cdba6","type":"charge:created","api_version":"2018-03-22","created_at":"2017-01-31T20:49:02Z","data":{"code":"66BEOV2A","name":"The Sovereign Individual","description":"Mastering the Transition to the Information Age","hosted_url":"https://commerce.coinbase.com/charges/66BEOV2A","created_at":"2017-01-31T20:49:02Z","expires_at":"2017-01-31T21:04:02Z","timeline":[{"time":"2017-01-31T20:49:02Z","status":"NEW"}],"metadata":{},"pricing_type":"no_price","payments":[],"addresses":{"bitcoin":"0000000000000000000000000000000000","ethereum":"0x0000000000000000000000000000000000000000","litecoin":"3000000000000000000000000000000000","bitcoincash":"bitcoincash:000000000000000000000000000000000000000000"}}}}';
    const headerSignature = '8be7742c7d372f08a6a3224edadf18a22b65fa9e28f3f2de97376cdaa092590d';
    expect(webhookSignature(payload, secret)).toBe(headerSignature);
    expect(signatureMatches(payload, headerSignature, secret)).toBe(true);
    // The SDK's own negative case: the secret's last character changed.
    expect(signatureMatches(payload, headerSignature, '30291a20-0bd1-4267-9b0f-e6e7b123c0bg')).toBe(false);
    expect(signatureMatches(`${payload}\n`, headerSignature, secret)).toBe(false);
    // The vector's charge is a no_price charge without an id: signed, but nothing we could apply.
    const vectorProvider = createCoinbaseProvider({
      apiKey: 'k',
      apiUrl: sandbox.url,
      webhookSecret: secret,
    });
    expect(vectorProvider.verifyWebhook(payload, headerSignature)).toBeNull();
  });
});
