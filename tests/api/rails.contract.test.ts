import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
  type Sandbox,
  startCheckoutSandbox,
} from '../../sandbox/checkout-com/index';
import {
  type CoinbaseSandbox,
  SANDBOX_API_KEY,
  SANDBOX_WEBHOOK_SECRET,
  startCoinbaseSandbox,
} from '../../sandbox/coinbase-commerce/index';
import { MintConflictError, type MintResult, type MintService } from '../../server/chain/mint';
import { FULFIL_JOB, type OrderMethod, SEND_FUSD_JOB } from '../../server/checkout/orders';
import { railOf } from '../../server/checkout/rails';
import { expireOrders } from '../../server/checkout/workflow/expire';
import { createFulfilment, type FulfilmentStep } from '../../server/checkout/workflow/fulfil';
import {
  blueprints,
  cardCharges,
  jobs,
  nftPurchases,
  orderEvents,
  orders,
  users,
} from '../../server/db/schema';
import { orderMethod } from '../../server/db/tables/orders';
import { createCheckoutComProvider } from '../../server/payments/checkout-com';
import { createCoinbaseProvider } from '../../server/payments/coinbase-commerce';
import type { CardProvider } from '../../server/payments/provider';
import { insertBlueprint } from '../../server/seed/factory';
import { databases, flowAddress, type Json, register, type TestApi, useTestApp } from './support/harness';
import { creator } from './support/sales';

/**
 * The contract every payment rail keeps (docs/checkout.md "Payment rails"), run against each rail
 * through the real HTTP API and the project's provider sandboxes (Checkout.com-shaped card sandbox,
 * Coinbase Commerce-shaped crypto sandbox; the free claim has no provider): a purchase reserves one
 * unit; a double submit (same idempotency key) answers the first purchase, nothing reserved again;
 * a payment that fails ends the order and gives the unit back; an unpaid order expires after the
 * rail's time; a webhook delivered 10 times pays once (one `authorized` event, one fulfil job); a
 * fulfil job stopped between its steps and run again mints each edition once and records it once;
 * a mint that fails for good gives the payment back once, with the rail's message.
 * The on-ramp, FUSD-balance and NFM rails keep the same contract in their own suites
 * (wert-charges, tests/chain/fusd.test.ts, token-charges), which need their chains.
 */

const SERVER = join(__dirname, '../../server');

/** Every .ts file of the server but the migrations. */
function serverFiles(dir = SERVER): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : serverFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

describe('the rail registry', () => {
  it('has a rail for every order method', () => {
    for (const method of orderMethod.enumValues) expect(railOf(method), method).toBeDefined();
  });

  it('is the only place in the server that compares or switches on an order method', () => {
    // 'token' is also a card source's type: only the other names are looked for as bare strings.
    const names = orderMethod.enumValues.filter((m) => m !== 'token').join('|');
    const comparison = new RegExp(
      `\\.method\\s*[!=]==|[!=]==\\s*\\w+\\.method\\b|case '(${names})'|[!=]== '(${names})'`,
    );
    const offenders = serverFiles()
      .filter((path) => !path.endsWith(join('checkout', 'rails.ts')))
      .flatMap((path) =>
        readFileSync(path, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${relative(SERVER, path)}:${i + 1}` }))
          // An HTTP method is not a payment method.
          .filter(({ line }) => comparison.test(line) && !/\b(req|route|r)\.method\b/.test(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });
});

/** A mint service that mints each purchase key once (as the real one does) and counts its calls. */
function recordingMint(fail?: () => Error | undefined): MintService & { keys: string[] } {
  const minted = new Map<string, MintResult>();
  let next = 7_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
  const keys: string[] = [];
  return {
    keys,
    async mint(r) {
      const refused = fail?.();
      if (refused) throw refused;
      keys.push(r.purchaseKey);
      const earlier = minted.get(r.purchaseKey);
      if (earlier) return earlier;
      const result: MintResult = {
        purchaseKey: r.purchaseKey,
        status: 'sealed',
        recipient: r.to,
        blueprintId: r.blueprintId,
        serialNumber: r.serialNumber,
        transactionId: randomBytes(32).toString('hex'),
        nftId: String(next++),
      };
      minted.set(r.purchaseKey, result);
      return result;
    },
    get: async () => undefined,
  };
}

interface Buyer {
  id: string;
  authToken: string;
  walletAddress: string;
}
type Item = { id: string; price: number };
type Answer = { status: number; body: Json };

/** What the contract needs of a rail, driven through its HTTP routes and its provider's sandbox. */
interface RailDriver {
  method: OrderMethod;
  /** Starts a purchase with the idempotency key; the order id of its answer. */
  start(who: Buyer, bp: Item, key: string): Promise<Answer & { orderId: string }>;
  /** A purchase whose payment fails at the provider (declined, canceled); answers its order id. */
  fail(who: Buyer, bp: Item): Promise<string>;
  /** The provider's event that pays the started purchase, signed: answers one delivery of it. */
  paidEvent(started: Answer & { orderId: string }): Promise<() => Promise<number>>;
  /** The job that gives the payment back after a failed mint (keyed by the charge), if the rail has one. */
  refundJob?: { kind: string; key(started: Answer): string };
}

describe.each(databases)('payment rails on %s', (database) => {
  let cardSandbox: Sandbox;
  let card: CardProvider;
  let cryptoSandbox: CoinbaseSandbox;
  let crypto: ReturnType<typeof createCoinbaseProvider>;
  const t: TestApi = useTestApp(
    database,
    {},
    {
      cardProvider: {
        requestPayment: (r) => card.requestPayment(r),
        getPayment: (id) => card.getPayment(id),
        capture: (id, key) => card.capture(id, key),
        void: (id, key) => card.void(id, key),
        refund: (id, key) => card.refund(id, key),
        verifyWebhook: (raw, sig) => card.verifyWebhook(raw, sig),
        publicConfig: () => card.publicConfig(),
      },
      cryptoProvider: {
        createCharge: (r) => crypto.createCharge(r),
        getCharge: (id) => crypto.getCharge(id),
        cancelCharge: (id) => crypto.cancelCharge(id),
        verifyWebhook: (raw, sig) => crypto.verifyWebhook(raw, sig),
      },
    },
  );

  beforeAll(async () => {
    cardSandbox = await startCheckoutSandbox({ port: 0, retrySchedule: [] });
    card = createCheckoutComProvider({
      secretKey: SANDBOX_SECRET_KEY,
      publicKey: SANDBOX_PUBLIC_KEY,
      apiUrl: cardSandbox.url,
      webhookSignatureKey: SANDBOX_WEBHOOK_KEY,
    });
    cryptoSandbox = await startCoinbaseSandbox({ port: 0, retrySchedule: [], confirmAfterMs: 100 });
    crypto = createCoinbaseProvider({
      apiKey: SANDBOX_API_KEY,
      apiUrl: cryptoSandbox.url,
      webhookSecret: SANDBOX_WEBHOOK_SECRET,
    });
  });
  afterAll(async () => {
    await cardSandbox?.close();
    await cryptoSandbox?.close();
  });

  /* ---- fixtures ---- */

  async function buyer(): Promise<Buyer> {
    const me = await register(t);
    const walletAddress = flowAddress();
    await t.database.db.update(users).set({ walletAddress }).where(eq(users.id, me.id));
    return { ...me, walletAddress };
  }
  async function item(price = 2500): Promise<Item> {
    const shop = await creator(t);
    return insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Item ${randomBytes(3).toString('hex')}`,
      price,
      quantity: 10,
    });
  }
  const key = () => `key-${randomBytes(8).toString('hex')}`;
  const available = async (id: string) =>
    (
      await t.database.db
        .select({ q: blueprints.quantityAvailable })
        .from(blueprints)
        .where(eq(blueprints.id, id))
    )[0]!.q;
  const orderRow = async (id: string) =>
    (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const ordersOf = async (buyerId: string) =>
    (await t.database.db.select({ n: count() }).from(orders).where(eq(orders.buyerId, buyerId)))[0]!.n;
  const jobsOf = async (kind: string, k: string) =>
    (
      await t.database.db
        .select({ n: count() })
        .from(jobs)
        .where(and(eq(jobs.kind, kind), eq(jobs.key, k)))
    )[0]!.n;
  const eventsOf = async (orderId: string) =>
    (await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)))
      .map((e) => e.type)
      .sort();

  /* ---- the card rail ---- */

  async function cardToken(number: string): Promise<string> {
    const res = await fetch(`${cardSandbox.url}/tokens`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SANDBOX_PUBLIC_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        type: 'card',
        number,
        cvv: '123',
        expiry_month: 12,
        expiry_year: new Date().getUTCFullYear() + 2,
      }),
    });
    return ((await res.json()) as Json).token;
  }
  const billing = (token: string) => ({
    cardToken: token,
    firstName: 'Ada',
    lastName: 'Lovelace',
    addressLine1: '1 Market St',
    city: 'San Francisco',
    state: 'CA',
    country: 'US',
    zipCode: '94105',
    phoneNumber: { countryCode: '1', number: '4155550123' },
  });
  const payByCard = async (who: Buyer, bp: Item, number: string, k = key()) =>
    t.request('POST', '/api/checkout-com-charges', {
      token: who.authToken,
      body: {
        idempotencyKey: k,
        item: { kind: 'blueprint', id: bp.id },
        expectedPrice: bp.price,
        billingInfo: billing(await cardToken(number)),
      },
    });

  const cardDriver: RailDriver = {
    method: 'creditCard',
    async start(who, bp, k) {
      // 3-D Secure: the order waits for the buyer, unpaid.
      const res = await payByCard(who, bp, '4485040371536584', k);
      return { ...res, orderId: res.body.orderId };
    },
    async fail(who, bp) {
      const res = await payByCard(who, bp, '4544249167673670');
      expect(res.status).toBe(402);
      return res.body.orderId;
    },
    async paidEvent(started) {
      const done = await fetch(started.body.redirectLink, {
        method: 'POST',
        body: new URLSearchParams({ action: 'approve' }),
        redirect: 'manual',
      });
      expect(done.status).toBe(302);
      const raw = JSON.stringify({
        id: `evt_${randomBytes(13).toString('hex')}`,
        type: 'payment_approved',
        data: { id: await paymentOf(started.orderId), reference: started.orderId },
      });
      const signature = createHmac('sha256', SANDBOX_WEBHOOK_KEY).update(raw).digest('hex');
      return async () =>
        (
          await t.request('POST', '/api/webhooks/checkout-com', {
            raw,
            headers: { 'content-type': 'application/json', 'cko-signature': signature },
          })
        ).status;
    },
  };

  /* ---- the crypto rail ---- */

  const cryptoDriver: RailDriver = {
    method: 'coinbase',
    async start(who, bp, k) {
      const res = await t.request('POST', '/api/coinbase-charges', {
        token: who.authToken,
        body: { idempotencyKey: k, type: 'directPurchase', blueprintId: bp.id, expectedPrice: bp.price },
      });
      return { ...res, orderId: res.body.order?.id };
    },
    async fail(who, bp) {
      const started = await this.start(who, bp, key());
      expect(started.status).toBe(201);
      const canceled = await t.request('PATCH', `/api/coinbase-charges/${started.body.id}`, {
        token: who.authToken,
        body: { status: 'CANCELED' },
      });
      expect(canceled.status).toBe(200);
      return started.orderId;
    },
    async paidEvent(started) {
      const charge = await crypto.getCharge(started.body.code);
      const data = (
        await (
          await fetch(`${cryptoSandbox.url}/charges/${charge.id}`, {
            headers: { 'X-CC-Api-Key': SANDBOX_API_KEY, 'X-CC-Version': '2018-03-22' },
          })
        ).json()
      ).data;
      const now = new Date().toISOString();
      const raw = JSON.stringify({
        id: 1,
        scheduled_for: now,
        attempt_number: 1,
        event: {
          id: randomUUID(),
          resource: 'event',
          type: 'charge:confirmed',
          api_version: '2018-03-22',
          created_at: now,
          data: {
            ...data,
            timeline: ['NEW', 'PENDING', 'COMPLETED'].map((status) => ({ time: now, status })),
            payments: [
              {
                value: { local: { amount: data.pricing.local.amount, currency: 'USD' } },
                status: 'CONFIRMED',
              },
            ],
          },
        },
      });
      const signature = createHmac('sha256', SANDBOX_WEBHOOK_SECRET).update(raw).digest('hex');
      return async () =>
        (
          await t.request('POST', '/api/webhooks/coinbase-commerce', {
            raw,
            headers: { 'content-type': 'application/json', 'x-cc-webhook-signature': signature },
          })
        ).status;
    },
    refundJob: { kind: SEND_FUSD_JOB, key: (started) => started.body.id },
  };

  /** A paid order of the rail: started, and its provider's event delivered. */
  async function paidOrder(rail: RailDriver, who: Buyer, bp: Item) {
    const started = await rail.start(who, bp, key());
    expect(started.status).toBe(201);
    const deliver = await rail.paidEvent(started);
    expect(await deliver()).toBe(200);
    expect((await orderRow(started.orderId)).status).toBe('authorized');
    return started;
  }

  describe.each([cardDriver, cryptoDriver])('the $method rail', (rail) => {
    it('reserves one unit for an unpaid order that holds it for the rail’s time', async () => {
      const me = await buyer();
      const bp = await item();
      const started = await rail.start(me, bp, key());
      expect(started.status).toBe(201);
      const order = await orderRow(started.orderId);
      expect(order).toMatchObject({
        method: rail.method,
        status: 'created',
        reserved: true,
        amount: bp.price,
      });
      expect(order.expiresAt.getTime() - order.createdAt.getTime()).toBe(railOf(rail.method).orderTtlMs);
      expect(await available(bp.id)).toBe(9);
    });

    it('answers a double submit (same idempotency key) with the first purchase: one order, one unit', async () => {
      const me = await buyer();
      const bp = await item();
      const k = key();
      const first = await rail.start(me, bp, k);
      const again = await rail.start(me, bp, k);
      expect([first.status, again.status]).toEqual([201, 200]);
      expect(again.body.id).toBe(first.body.id);
      expect(await ordersOf(me.id)).toBe(1);
      expect(await available(bp.id)).toBe(9);
    });

    it('a payment that fails ends the order and gives the unit back', async () => {
      const me = await buyer();
      const bp = await item();
      const orderId = await rail.fail(me, bp);
      const order = await orderRow(orderId);
      expect(['declined', 'canceled']).toContain(order.status);
      expect(order.reserved).toBe(false);
      expect(await available(bp.id)).toBe(10);
      expect(await jobsOf(FULFIL_JOB, orderId)).toBe(0);
    });

    it('expires an unpaid order after the rail’s time and gives the unit back', async () => {
      const me = await buyer();
      const bp = await item();
      const started = await rail.start(me, bp, key());
      try {
        t.clock.advance(railOf(rail.method).orderTtlMs - 60_000);
        await expireOrders(t.database.db, t.clock.now());
        expect((await orderRow(started.orderId)).status).toBe('created');
        t.clock.advance(2 * 60_000);
        expect(await expireOrders(t.database.db, t.clock.now())).toBeGreaterThanOrEqual(1);
      } finally {
        t.clock.reset();
      }
      expect(await orderRow(started.orderId)).toMatchObject({ status: 'expired', reserved: false });
      expect(await available(bp.id)).toBe(10);
    });

    it('applies a webhook replayed 10 times once: one authorized event, one fulfil job', async () => {
      const me = await buyer();
      const bp = await item();
      const started = await rail.start(me, bp, key());
      const deliver = await rail.paidEvent(started);
      const answers = await Promise.all(Array.from({ length: 10 }, deliver));
      expect(answers).toEqual(Array(10).fill(200));
      expect((await orderRow(started.orderId)).status).toBe('authorized');
      expect((await eventsOf(started.orderId)).filter((e) => e === 'authorized')).toHaveLength(1);
      expect(await jobsOf(FULFIL_JOB, started.orderId)).toBe(1);
      expect(await available(bp.id)).toBe(9);
    });

    it.each<FulfilmentStep>(['captured', 'minted-edition', 'minted'])(
      'a fulfil job stopped after %s and run again mints and records each edition once',
      async (stop) => {
        const me = await buyer();
        const bp = await item();
        const started = await paidOrder(rail, me, bp);
        const mint = recordingMint();
        let crashed = false;
        const onStep = (step: FulfilmentStep) => {
          if (step === stop && !crashed) {
            crashed = true;
            throw new Error(`stopped after ${step}`);
          }
        };
        const job = createFulfilment({ db: t.database.db, provider: card, mint, now: t.clock.now, onStep });
        // The card captures (and stops there); the other rails have nothing to capture.
        const stops = stop !== 'captured' || railOf(rail.method).capture !== undefined;
        if (stops) await expect(job.fulfil(started.orderId)).rejects.toThrow('stopped');
        await job.fulfil(started.orderId, 2);
        expect((await orderRow(started.orderId)).status).toBe('minted');
        expect(new Set(mint.keys)).toEqual(new Set([`order-${started.orderId}-${bp.id}`]));
        const recorded = await t.database.db
          .select()
          .from(nftPurchases)
          .where(eq(nftPurchases.orderId, started.orderId));
        expect(recorded).toHaveLength(1);
        expect(recorded[0]).toMatchObject({ type: rail.method, amount: bp.price });
        expect((await eventsOf(started.orderId)).filter((e) => e === 'minted')).toHaveLength(1);
      },
    );

    it('a mint that fails for good gives the payment back once, with the rail’s message', async () => {
      const me = await buyer();
      const bp = await item();
      const started = await paidOrder(rail, me, bp);
      const mint = recordingMint(() => new MintConflictError('the edition belongs to another purchase'));
      const job = createFulfilment({ db: t.database.db, provider: card, mint, now: t.clock.now, log: quiet });
      await job.fulfil(started.orderId);
      await job.fulfil(started.orderId);
      expect(await orderRow(started.orderId)).toMatchObject({
        status: 'refunded',
        reserved: false,
        failureCode: 'MINT_SAVE_FAILED',
        failureMessage: railOf(rail.method).mintFailedMessage,
      });
      expect((await eventsOf(started.orderId)).filter((e) => e === 'refunded')).toHaveLength(1);
      expect(await available(bp.id)).toBe(10);
      if (rail.refundJob) expect(await jobsOf(rail.refundJob.kind, rail.refundJob.key(started))).toBe(1);
      else
        expect(
          (await card.getPayment((await paymentOf(started.orderId))!)).status,
          'refunded at the provider',
        ).toBe('Refunded');
    });
  });

  async function paymentOf(orderId: string) {
    return (await t.database.db.select().from(cardCharges).where(eq(cardCharges.orderId, orderId)))[0]
      ?.paymentId;
  }

  describe('the free claim', () => {
    const claim = (who: Buyer, bp: Item) =>
      t.request('POST', '/api/free-blueprint-claims', { token: who.authToken, body: { blueprintId: bp.id } });

    it('reserves one unit, authorized at once for nothing; a second claim is refused', async () => {
      const me = await buyer();
      const bp = await item(0);
      const res = await claim(me, bp);
      expect(res.status).toBe(201);
      expect(await orderRow(res.body.orderId)).toMatchObject({
        method: 'freeBlueprintClaim',
        status: 'authorized',
        amount: 0,
      });
      expect(await jobsOf(FULFIL_JOB, res.body.orderId)).toBe(1);
      expect(await claim(me, bp)).toMatchObject({ status: 400, body: { code: 'CLAIM_BLUEPRINT' } });
      expect(await available(bp.id)).toBe(9);
    });

    it('a fulfil job stopped after minting and run again mints once; a mint that fails for good voids the claim', async () => {
      const me = await buyer();
      const bp = await item(0);
      const res = await claim(me, bp);
      const mint = recordingMint();
      let crashed = false;
      const job = createFulfilment({
        db: t.database.db,
        provider: null,
        mint,
        now: t.clock.now,
        onStep: (step) => {
          if (step === 'minted-edition' && !crashed) {
            crashed = true;
            throw new Error('stopped');
          }
        },
      });
      await expect(job.fulfil(res.body.orderId)).rejects.toThrow('stopped');
      await job.fulfil(res.body.orderId, 2);
      expect((await orderRow(res.body.orderId)).status).toBe('minted');
      expect(new Set(mint.keys).size).toBe(1);

      const other = await buyer();
      const second = await claim(other, bp);
      const refused = createFulfilment({
        db: t.database.db,
        provider: null,
        mint: recordingMint(() => new MintConflictError('taken')),
        now: t.clock.now,
        log: quiet,
      });
      await refused.fulfil(second.body.orderId);
      expect(await orderRow(second.body.orderId)).toMatchObject({
        status: 'voided',
        failureMessage: railOf('freeBlueprintClaim').mintFailedMessage,
      });
      // The claim did not happen: the buyer may claim again.
      expect((await claim(other, bp)).status).toBe(201);
    });
  });
});

const quiet = { info: () => {}, warn: () => {}, error: () => {} } as unknown as Parameters<
  typeof createFulfilment
>[0]['log'];
