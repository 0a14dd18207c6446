import { createHmac, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
  type Sandbox,
  startCheckoutSandbox,
} from '../../sandbox/checkout-com/index';
import { createTokens } from '../../server/auth/tokens';
import { FULFIL_JOB } from '../../server/checkout/orders';
import { expireOrders } from '../../server/checkout/workflow/expire';
import {
  billingInfos,
  blueprintPacks,
  blueprints,
  cardCharges,
  jobs,
  orderEvents,
  orders,
  sessions,
  storefronts,
  users,
  webhookEvents,
} from '../../server/db/schema';
import { createCheckoutComProvider } from '../../server/payments/checkout-com';
import type { CardProvider, ProviderPayment } from '../../server/payments/provider';
import { insertBlueprint, insertPack } from '../../server/seed/factory';
import {
  databases,
  flowAddress,
  type Json,
  JWT_SECRET,
  register,
  registerAdmin,
  type TestApi,
  useTestApp,
} from './support/harness';
import { creator } from './support/sales';

/**
 * The checkout's card and free-claim routes against the embedded Checkout.com-shaped sandbox over
 * real HTTP (through the real adapter): reserve → authorize → settle by answer, sync or webhook;
 * declines, refusals, idempotency, cancel, expiry, free claims, and 200 buyers racing for the last
 * 5 editions. Fulfilment (capture → mint) runs on the chain: tests/chain/fulfilment.test.ts.
 */

const CARD = {
  visa: '4242424242424242',
  threeDs: '4485040371536584',
  mastercard: '5436031030606378',
  discover: '6011111111111117',
  declined: '4544249167673670',
  insufficient: '4095254802642505',
  amex: '378282246310005',
};

describe.each(databases)('checkout orders on %s', (database) => {
  let sandbox: Sandbox;
  let real: CardProvider;
  /** How far the sandbox's clock runs ahead (expires tokens). */
  let sandboxAhead = 0;
  /** Calls the checkout made to the provider (the adapter's methods). */
  const calls = { requestPayment: 0, capture: 0, void: 0, refund: 0 };
  /** Changes what the provider answers of a payment (a tampered or mistaken report). */
  let tamper: ((payment: ProviderPayment) => ProviderPayment) | undefined;
  const provider: CardProvider = {
    requestPayment: (r) => {
      calls.requestPayment++;
      return real.requestPayment(r);
    },
    getPayment: async (id) => {
      const payment = await real.getPayment(id);
      return tamper ? tamper(payment) : payment;
    },
    capture: (id, key) => {
      calls.capture++;
      return real.capture(id, key);
    },
    void: (id, key) => {
      calls.void++;
      return real.void(id, key);
    },
    refund: (id, key) => {
      calls.refund++;
      return real.refund(id, key);
    },
    verifyWebhook: (raw, sig) => real.verifyWebhook(raw, sig),
    publicConfig: () => real.publicConfig(),
  };
  const t: TestApi = useTestApp(database, {}, { cardProvider: provider });

  beforeAll(async () => {
    sandbox = await startCheckoutSandbox({
      port: 0,
      retrySchedule: [],
      now: () => new Date(Date.now() + sandboxAhead),
    });
    real = createCheckoutComProvider({
      secretKey: SANDBOX_SECRET_KEY,
      publicKey: SANDBOX_PUBLIC_KEY,
      apiUrl: sandbox.url,
      webhookSignatureKey: SANDBOX_WEBHOOK_KEY,
    });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  /* ---- fixtures ---- */

  async function cardToken(number: string, cvv = '123'): Promise<string> {
    const res = await fetch(`${sandbox.url}/tokens`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SANDBOX_PUBLIC_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        type: 'card',
        number,
        cvv,
        expiry_month: 12,
        expiry_year: new Date().getUTCFullYear() + 2,
      }),
    });
    const body = (await res.json()) as Json;
    if (res.status !== 201) throw new Error(`token: ${res.status} ${JSON.stringify(body)}`);
    return body.token;
  }

  const billing = (cardTokenValue: string, save = false) => ({
    cardToken: cardTokenValue,
    firstName: 'Ada',
    lastName: 'Lovelace',
    addressLine1: '1 Market St',
    city: 'San Francisco',
    state: 'CA',
    country: 'US',
    zipCode: '94105',
    phoneNumber: { countryCode: '1', number: '4155550123' },
    save,
  });

  /** A registered buyer with a wallet. */
  async function buyer(options: { wallet?: boolean } = {}) {
    const me = await register(t);
    const walletAddress = options.wallet === false ? null : flowAddress();
    if (walletAddress) await t.database.db.update(users).set({ walletAddress }).where(eq(users.id, me.id));
    return { ...me, walletAddress };
  }

  async function item(values: Partial<Parameters<typeof insertBlueprint>[1]> = {}) {
    const shop = await creator(t);
    return insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Item ${randomBytes(3).toString('hex')}`,
      price: 2500,
      quantity: 10,
      ...values,
    });
  }

  const key = () => `key-${randomBytes(8).toString('hex')}`;

  async function charge(
    who: { authToken: string },
    body: Record<string, unknown> & { item?: unknown },
  ): Promise<{ status: number; body: Json; headers: Headers }> {
    return t.request('POST', '/api/checkout-com-charges', {
      token: who.authToken,
      body: { idempotencyKey: key(), ...body },
    });
  }

  async function payNew(
    who: { authToken: string },
    bp: { id: string; price: number },
    number = CARD.visa,
    extra = {},
  ) {
    return charge(who, {
      item: { kind: 'blueprint', id: bp.id },
      expectedPrice: bp.price,
      billingInfo: billing(await cardToken(number)),
      ...extra,
    });
  }

  const available = async (id: string) =>
    (
      await t.database.db
        .select({ q: blueprints.quantityAvailable })
        .from(blueprints)
        .where(eq(blueprints.id, id))
    )[0]!.q;
  const orderRow = async (id: string) =>
    (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const chargeRow = async (orderId: string) =>
    (await t.database.db.select().from(cardCharges).where(eq(cardCharges.orderId, orderId)))[0]!;
  const fulfilJobs = async (orderId: string) =>
    (
      await t.database.db
        .select({ n: count() })
        .from(jobs)
        .where(and(eq(jobs.kind, FULFIL_JOB), eq(jobs.key, orderId)))
    )[0]!.n;

  /** Completes (or fails) the 3-D Secure challenge as the buyer would; answers the session id. */
  async function challenge(redirectLink: string, action: 'approve' | 'fail'): Promise<string> {
    const res = await fetch(redirectLink, {
      method: 'POST',
      body: new URLSearchParams({ action }),
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!).searchParams.get('cko-session-id')!;
  }

  function signedEvent(event: unknown) {
    const raw = JSON.stringify(event);
    return { raw, signature: createHmac('sha256', SANDBOX_WEBHOOK_KEY).update(raw).digest('hex') };
  }

  const postWebhook = (raw: string, signature: string) =>
    t.request('POST', '/api/webhooks/checkout-com', {
      raw,
      headers: { 'content-type': 'application/json', 'cko-signature': signature },
    });

  /* ---- create ---- */

  it('charges a card without 3-D Secure: success, the order authorized with a fulfil job, one unit taken; each edition with its picture and storefront', async () => {
    const me = await buyer();
    const bp = await item({ price: 2500, previewImageUrl: '/media/seed/night-market.png' });
    const [shop] = await t.database.db
      .select({ id: storefronts.id, name: storefronts.name })
      .from(storefronts)
      .where(eq(storefronts.id, bp.storefrontId));
    const before = calls.requestPayment;
    const res = await payNew(me, bp);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      status: 'Authorized',
      success: true,
      unresolved: false,
      redirectLink: null,
      last4: '4242',
      order: {
        method: 'creditCard',
        item: { kind: 'blueprint', id: bp.id, title: bp.title },
        amount: 2500,
        currency: 'USD',
        status: 'authorized',
        walletAddress: me.walletAddress,
        editions: [
          {
            blueprintId: bp.id,
            flowBlueprintId: bp.flowBlueprintId,
            serialNumber: null,
            nftId: null,
            previewImageUrl: '/media/seed/night-market.png',
            storefront: shop,
          },
        ],
        failure: null,
      },
    });
    expect(res.body.order.events.map((e: Json) => e.type)).toEqual(['created', 'authorized']);
    expect(calls.requestPayment).toBe(before + 1);
    expect(await available(bp.id)).toBe(9);
    expect(await fulfilJobs(res.body.orderId)).toBe(1);
    // The provider holds an authorization of the database's price for the order.
    const payment = await real.getPayment((await chargeRow(res.body.orderId)).paymentId!);
    expect(payment).toMatchObject({ status: 'Authorized', amount: 2500, reference: res.body.orderId });

    const again = await t.request('GET', `/api/checkout-com-charges/${res.body.id}`, { token: me.authToken });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    const order = await t.request('GET', `/api/orders/${res.body.orderId}`, { token: me.authToken });
    expect(order.body).toEqual(res.body.order);
  });

  it('asks for 3-D Secure: unresolved with a redirect; sync after the challenge settles it', async () => {
    const me = await buyer();
    const bp = await item({ price: 3100 });
    const res = await payNew(me, bp, CARD.threeDs);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'Pending',
      success: false,
      unresolved: true,
      order: { status: 'created' },
    });
    expect(res.body.redirectLink).toMatch(new RegExp(`^${sandbox.url}/3ds/sid_`));
    expect(await available(bp.id)).toBe(9);

    const listed = await t.request('GET', '/api/checkout-com-charges?unresolved=true', {
      token: me.authToken,
    });
    expect(listed.body.results.map((c: Json) => c.id)).toEqual([res.body.id]);
    // Another purchase meanwhile: the unresolved charge comes first.
    const other = await payNew(me, await item());
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'CHARGE_PENDING', chargeId: res.body.id });

    const sid = await challenge(res.body.redirectLink, 'approve');
    const synced = await t.request('PATCH', `/api/checkout-com-charges/${res.body.id}/actions/sync`, {
      token: me.authToken,
      body: { ckoSessionId: sid },
    });
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({
      status: 'Authorized',
      success: true,
      unresolved: false,
      redirectLink: null,
      order: { status: 'authorized' },
    });
    expect(await fulfilJobs(res.body.orderId)).toBe(1);
    expect((await chargeRow(res.body.orderId)).sessionId).toBe(sid);
    const after = await t.request('GET', '/api/checkout-com-charges?unresolved=true', {
      token: me.authToken,
    });
    expect(after.body.results).toEqual([]);
    // The session of another payment is refused.
    const next = await payNew(me, await item(), CARD.threeDs);
    const wrong = await t.request('PATCH', `/api/checkout-com-charges/${next.body.id}/actions/sync`, {
      token: me.authToken,
      body: { ckoSessionId: sid },
    });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'INVALID_VALUE', field: 'ckoSessionId' } });
    expect((await orderRow(next.body.orderId)).status).toBe('created');
  });

  it('a failed 3-D Secure challenge declines the order and releases the unit', async () => {
    const me = await buyer();
    const bp = await item();
    const res = await payNew(me, bp, CARD.threeDs);
    const sid = await challenge(res.body.redirectLink, 'fail');
    const synced = await t.request('PATCH', `/api/checkout-com-charges/${res.body.id}/actions/sync`, {
      token: me.authToken,
      body: { ckoSessionId: sid },
    });
    expect(synced.body).toMatchObject({
      status: 'Declined',
      success: false,
      unresolved: false,
      order: { status: 'declined', failure: { code: 'CARD_DECLINED' } },
    });
    expect(await available(bp.id)).toBe(10);
  });

  it('answers declines with 402, the code and the order; the order is declined and the unit released', async () => {
    const me = await buyer();
    const cases = [
      { number: CARD.declined, price: 2500, code: 'CARD_DECLINED' },
      { number: CARD.insufficient, price: 2500, code: 'CARD_INSUFFICIENT_FUNDS' },
      // An expired card (20054) is a decline like any other: card testers learn nothing of the expiry.
      { number: CARD.visa, price: 2554, code: 'CARD_DECLINED' },
      { number: CARD.visa, price: 2551, code: 'CARD_INSUFFICIENT_FUNDS' },
    ];
    for (const c of cases) {
      const bp = await item({ price: c.price });
      const res = await payNew(me, bp, c.number);
      expect(res.status, c.code).toBe(402);
      expect(res.body).toMatchObject({ code: c.code, orderId: expect.any(String) });
      expect(res.body.message.length).toBeGreaterThan(0);
      expect(await available(bp.id)).toBe(10);
      const order = await t.request('GET', `/api/orders/${res.body.orderId}`, { token: me.authToken });
      expect(order.body).toMatchObject({ status: 'declined', failure: { code: c.code } });
      expect(order.body.events.map((e: Json) => e.type)).toEqual(['created', 'declined']);
    }
    // Wrong CVV (the sandbox declines CVV 100 with 20087): the same answer as any decline, so a
    // wrong CVV is not told from a wrong number or expiry.
    const bp = await item();
    const res = await charge(me, {
      item: { kind: 'blueprint', id: bp.id },
      expectedPrice: bp.price,
      billingInfo: billing(await cardToken(CARD.visa, '100')),
    });
    expect(res.status).toBe(402);
    const plain = await t.request('GET', `/api/orders/${res.body.orderId}`, { token: me.authToken });
    expect({ ...res.body, orderId: undefined }).toEqual({
      code: 'CARD_DECLINED',
      message: plain.body.failure.message,
      orderId: undefined,
    });
    expect(res.body.message).toBe('Purchase Failed. Your card was not charged.');
  });

  it('refuses bad input with its error codes, before reserving or charging, and never with a 500', async () => {
    const me = await buyer();
    const bp = await item({ price: 2500 });
    const before = calls.requestPayment;
    const attempt = async (body: Record<string, unknown>, who: { authToken: string } = me) =>
      charge(who, { item: { kind: 'blueprint', id: bp.id }, expectedPrice: 2500, ...body });
    const tok = () => cardToken(CARD.visa);

    expect(await attempt({ expectedPrice: 2000, billingInfo: billing(await tok()) })).toMatchObject({
      status: 409,
      body: { code: 'PRICE_CHANGED' },
    });
    expect(
      await attempt({ billingInfo: billing(await tok()) }, await buyer({ wallet: false })),
    ).toMatchObject({
      status: 400,
      body: { code: 'WALLET_REQUIRED' },
    });
    expect(
      await attempt({
        item: { kind: 'blueprint', id: crypto.randomUUID() },
        billingInfo: billing(await tok()),
      }),
    ).toMatchObject({ status: 404 });
    expect(
      await attempt({ item: { kind: 'pack', id: crypto.randomUUID() }, billingInfo: billing(await tok()) }),
    ).toMatchObject({ status: 404 });
    // Not on sale: a draft, a canceled item, a blueprint of a pack (sold only with its pack), a free item.
    const shop = await creator(t);
    const pack = await insertPack(t.database.db, {
      storefrontId: shop.storefront.id,
      title: 'P',
      price: 900,
      quantity: 5,
    });
    const notOnSale = [
      await item({ state: 'created' }),
      await item({ state: 'canceled' }),
      await item({ blueprintPackId: pack.id, type: 'standaloneInPack' }),
      await item({ price: 0 }),
      await item({ visible: false }),
      await item({ availableTime: new Date(Date.now() + 86_400_000) }),
    ];
    for (const b of notOnSale) {
      const res = await attempt({
        item: { kind: 'blueprint', id: b.id },
        expectedPrice: b.price,
        billingInfo: billing(await tok()),
      });
      expect(res, b.state).toMatchObject({ status: 400, body: { code: 'NOT_PURCHASABLE' } });
    }
    const draftPack = await insertPack(t.database.db, {
      storefrontId: shop.storefront.id,
      title: 'Draft',
      price: 900,
      quantity: 5,
      state: 'created',
    });
    expect(
      await attempt({
        item: { kind: 'pack', id: draftPack.id },
        expectedPrice: 900,
        billingInfo: billing(await tok()),
      }),
    ).toMatchObject({ status: 400, body: { code: 'NOT_PURCHASABLE' } });
    // Neither or both card sources; bad billing details.
    expect(await attempt({})).toMatchObject({
      status: 400,
      body: { code: 'INVALID_VALUE', field: 'billingInfo' },
    });
    expect(
      await attempt({
        billingInfo: billing(await tok()),
        savedBillingInfo: { id: crypto.randomUUID(), cvv: '123' },
      }),
    ).toMatchObject({ status: 400, body: { code: 'INVALID_VALUE', field: 'billingInfo' } });
    expect(
      await attempt({
        billingInfo: { ...billing(await tok()), phoneNumber: { countryCode: '1', number: '12' } },
      }),
    ).toMatchObject({ status: 400, body: { code: 'PHONE_SHORT' } });
    expect(await attempt({ billingInfo: billing('tok_short') })).toMatchObject({
      status: 400,
      body: { code: 'CARD_TOKEN' },
    });
    // Someone else's saved card is unknown.
    const [foreign] = await t.database.db
      .insert(billingInfos)
      .values({
        userId: (await buyer()).id,
        sourceId: 'src_foreignforeignforeignforeignf',
        lastFourDigits: '4242',
        scheme: 'VISA',
        firstName: 'Eve',
        addressLine1: 'x',
        city: 'x',
        state: 'CA',
        country: 'US',
        zipCode: '1',
        phoneCountryCode: '1',
        phoneNumber: '4155550123',
        status: 'verified',
      })
      .returning();
    expect(await attempt({ savedBillingInfo: { id: foreign!.id, cvv: '123' } })).toMatchObject({
      status: 404,
    });
    expect(await available(bp.id)).toBe(10);

    // A saved card past its expiry.
    const [old] = await t.database.db
      .insert(billingInfos)
      .values({ ...foreign!, id: undefined, userId: me.id, expiryMonth: 1, expiryYear: 2020 })
      .returning();
    expect(await attempt({ savedBillingInfo: { id: old!.id, cvv: '123' } })).toMatchObject({
      status: 400,
      body: { code: 'CARD_EXPIRED' },
    });
    expect(calls.requestPayment).toBe(before);

    // A token that expired (15 minutes at the provider): CARD_TOKEN, the reservation released.
    const stale = await tok();
    sandboxAhead = 16 * 60_000;
    try {
      const res = await attempt({ billingInfo: billing(stale) });
      expect(res).toMatchObject({ status: 400, body: { code: 'CARD_TOKEN', orderId: expect.any(String) } });
      expect(await available(bp.id)).toBe(10);
    } finally {
      sandboxAhead = 0;
    }

    // A token used before: CARD_TOKEN from the provider; the reservation is released.
    const used = await tok();
    expect((await attempt({ billingInfo: billing(used) })).status).toBe(201);
    const again = await attempt({ billingInfo: billing(used) });
    expect(again).toMatchObject({ status: 400, body: { code: 'CARD_TOKEN', orderId: expect.any(String) } });
    expect((await orderRow(again.body.orderId)).status).toBe('declined');
  });

  it('refuses a card brand it does not take (AMEX) and voids the authorization', async () => {
    const me = await buyer();
    const bp = await item();
    const before = calls.void;
    const res = await payNew(me, bp, CARD.amex);
    expect(res).toMatchObject({ status: 400, body: { code: 'CARD_TYPE', orderId: expect.any(String) } });
    expect(await available(bp.id)).toBe(10);
    const row = await chargeRow(res.body.orderId);
    expect(row.status).toBe('Voided');
    expect((await real.getPayment(row.paymentId!)).status).toBe('Voided');
    expect(calls.void).toBe(before + 1);
    expect(await orderRow(res.body.orderId)).toMatchObject({
      status: 'declined',
      failureCode: 'CARD_TYPE',
      reserved: false,
    });
  });

  it('saves the card when asked, refuses a duplicate before capture, and pays with the saved card and its CVV', async () => {
    const me = await buyer();
    const bp = await item();
    const first = await payNew(me, bp, CARD.mastercard, {
      billingInfo: billing(await cardToken(CARD.mastercard), true),
    });
    expect(first.status).toBe(201);
    const saved = await t.database.db.select().from(billingInfos).where(eq(billingInfos.userId, me.id));
    expect(saved).toMatchObject([{ lastFourDigits: '6378', scheme: 'MASTERCARD', status: 'verified' }]);
    expect(saved[0]!.sourceId).toMatch(/^src_/);
    expect((await chargeRow(first.body.orderId)).billingInfoId).toBe(saved[0]!.id);

    const dup = await payNew(me, bp, CARD.mastercard, {
      billingInfo: billing(await cardToken(CARD.mastercard), true),
    });
    expect(dup).toMatchObject({ status: 400, body: { code: 'CARD_DUPLICATE' } });
    expect((await chargeRow(dup.body.orderId)).status).toBe('Voided');
    expect(await available(bp.id)).toBe(9);

    const bySaved = await charge(me, {
      item: { kind: 'blueprint', id: bp.id },
      expectedPrice: bp.price,
      savedBillingInfo: { id: saved[0]!.id, cvv: '123' },
    });
    expect(bySaved.status).toBe(201);
    expect(bySaved.body).toMatchObject({ success: true, last4: '6378' });
    const wrongCvv = await charge(me, {
      item: { kind: 'blueprint', id: bp.id },
      expectedPrice: bp.price,
      savedBillingInfo: { id: saved[0]!.id, cvv: '100' },
    });
    expect(wrongCvv).toMatchObject({ status: 402, body: { code: 'CARD_DECLINED' } });
    expect(await available(bp.id)).toBe(8);
  });

  it('answers a repeated idempotency key with the same charge: one order, one provider payment', async () => {
    const me = await buyer();
    const bp = await item();
    const body = {
      item: { kind: 'blueprint', id: bp.id },
      expectedPrice: bp.price,
      idempotencyKey: key(),
      billingInfo: billing(await cardToken(CARD.visa)),
    };
    const before = calls.requestPayment;
    const first = await t.request('POST', '/api/checkout-com-charges', { token: me.authToken, body });
    const second = await t.request('POST', '/api/checkout-com-charges', { token: me.authToken, body });
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(second.body).toEqual(first.body);

    // Concurrent retries of a new purchase.
    const racing = { ...body, idempotencyKey: key(), billingInfo: billing(await cardToken(CARD.visa)) };
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.request('POST', '/api/checkout-com-charges', { token: me.authToken, body: racing }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(calls.requestPayment).toBe(before + 2);
    const mine = await t.database.db.select().from(orders).where(eq(orders.buyerId, me.id));
    expect(mine).toHaveLength(2);
    expect(await available(bp.id)).toBe(8);
  });

  it('cancels a charge waiting for 3-D Secure: canceled, unit released; a settled charge cannot be canceled', async () => {
    const me = await buyer();
    const bp = await item();
    const res = await payNew(me, bp, CARD.threeDs);
    expect(await available(bp.id)).toBe(9);
    const canceled = await t.request('POST', `/api/checkout-com-charges/${res.body.id}/actions/cancel`, {
      token: me.authToken,
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      status: 'Canceled',
      unresolved: false,
      success: false,
      order: { status: 'canceled' },
    });
    expect(await available(bp.id)).toBe(10);
    // Again: the same answer, nothing released twice.
    const twice = await t.request('POST', `/api/checkout-com-charges/${res.body.id}/actions/cancel`, {
      token: me.authToken,
    });
    expect(twice.status).toBe(200);
    expect(await available(bp.id)).toBe(10);
    // The buyer approves the challenge anyway: the authorization is voided.
    const sid = await challenge(res.body.redirectLink, 'approve');
    expect((await real.getPayment(sid)).status).toBe('Authorized');
    const { raw, signature } = signedEvent({
      id: `evt_${randomBytes(13).toString('hex')}`,
      type: 'payment_approved',
      data: { id: (await chargeRow(res.body.orderId)).paymentId, reference: res.body.orderId },
    });
    expect((await postWebhook(raw, signature)).status).toBe(200);
    expect(await fulfilJobs(res.body.orderId)).toBe(1);
    expect((await orderRow(res.body.orderId)).status).toBe('voided');
    expect((await real.getPayment(sid)).status).toBe('Voided');
    expect(await available(bp.id)).toBe(10);

    const paid = await payNew(me, bp);
    const refused = await t.request('POST', `/api/checkout-com-charges/${paid.body.id}/actions/cancel`, {
      token: me.authToken,
    });
    expect(refused).toMatchObject({ status: 400, body: { code: 'CHARGE_NOT_CANCELLABLE' } });
    // Someone else's charge is unknown.
    const other = await buyer();
    for (const [method, path] of [
      ['GET', `/api/checkout-com-charges/${paid.body.id}`],
      ['POST', `/api/checkout-com-charges/${paid.body.id}/actions/cancel`],
      ['PATCH', `/api/checkout-com-charges/${paid.body.id}/actions/sync`],
      ['GET', `/api/orders/${paid.body.orderId}`],
    ] as const) {
      expect(
        (await t.request(method, path, { token: other.authToken, body: method === 'PATCH' ? {} : undefined }))
          .status,
      ).toBe(404);
    }
  });

  // That an unpaid order expires after the rail's time and gives its unit back is the rails'
  // contract (rails.contract.test.ts); what the card adds is its charge's end.
  it('an expired card order’s charge is Expired and no longer unresolved', async () => {
    const me = await buyer();
    const bp = await item();
    const res = await payNew(me, bp, CARD.threeDs);
    t.clock.advance(16 * 60_000);
    expect(await expireOrders(t.database.db, t.clock.now())).toBeGreaterThanOrEqual(1);
    expect((await chargeRow(res.body.orderId)).status).toBe('Expired');
    t.clock.reset(); // the session token outlives 15 minutes only on the real clock
    const unresolved = await t.request('GET', '/api/checkout-com-charges?unresolved=true', {
      token: me.authToken,
    });
    expect(unresolved.body.results).toEqual([]);
  });

  it('buys a pack: one unit of the pack, an edition of each of its blueprints', async () => {
    const me = await buyer();
    const shop = await creator(t);
    const pack = await insertPack(t.database.db, {
      storefrontId: shop.storefront.id,
      title: 'Trio',
      price: 1000,
      quantity: 3,
    });
    const members = [];
    for (const n of [1, 2, 3])
      members.push(
        await insertBlueprint(t.database.db, {
          storefrontId: shop.storefront.id,
          title: `Part ${n}`,
          price: 0,
          quantity: 3,
          blueprintPackId: pack.id,
          type: 'standaloneInPack',
        }),
      );
    const res = await charge(me, {
      item: { kind: 'pack', id: pack.id },
      expectedPrice: 1000,
      billingInfo: billing(await cardToken(CARD.discover)),
    });
    expect(res.status).toBe(201);
    expect(res.body.order).toMatchObject({
      item: { kind: 'pack', id: pack.id, title: 'Trio' },
      amount: 1000,
    });
    expect(res.body.order.editions.map((e: Json) => e.blueprintId)).toEqual(members.map((m) => m.id));
    const [p] = await t.database.db.select().from(blueprintPacks).where(eq(blueprintPacks.id, pack.id));
    expect(p!.quantityAvailable).toBe(2);
  });

  /* ---- webhooks ---- */

  // One event delivered 10 times pays once: the rails' contract (rails.contract.test.ts).
  it('other events about a payment already applied change nothing; an event is stored once', async () => {
    const me = await buyer();
    const bp = await item();
    const res = await payNew(me, bp, CARD.threeDs);
    await challenge(res.body.redirectLink, 'approve');
    const paymentId = (await chargeRow(res.body.orderId)).paymentId!;
    const event = {
      id: `evt_${randomBytes(13).toString('hex')}`,
      type: 'payment_approved',
      data: { id: paymentId, reference: res.body.orderId },
    };
    const { raw, signature } = signedEvent(event);
    expect((await postWebhook(raw, signature)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const more = signedEvent({ ...event, id: `evt_${randomBytes(13).toString('hex')}` });
      expect((await postWebhook(more.raw, more.signature)).status).toBe(200);
    }
    expect(await orderRow(res.body.orderId)).toMatchObject({ status: 'authorized', reserved: true });
    const events = await t.database.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, res.body.orderId));
    expect(events.map((e) => e.type).sort()).toEqual(['authorized', 'created']);
    expect(await fulfilJobs(res.body.orderId)).toBe(1);
    const stored = await t.database.db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
    expect(stored).toHaveLength(1);
  });

  it('settles from the provider’s own signed webhook delivery (no sync)', async () => {
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    sandbox.setWebhookUrl(`http://127.0.0.1:${port}/api/webhooks/checkout-com`);
    try {
      const me = await buyer();
      const res = await payNew(me, await item(), CARD.threeDs);
      await challenge(res.body.redirectLink, 'approve');
      // The sandbox records the delivery once our answer reaches it, a moment after the order changed.
      const delivered = () =>
        sandbox.deliveries.some((d) => d.type === 'payment_approved' && d.status === 200);
      const deadline = Date.now() + 10_000;
      while (
        ((await orderRow(res.body.orderId)).status === 'created' || !delivered()) &&
        Date.now() < deadline
      )
        await new Promise((r) => setTimeout(r, 25));
      expect((await orderRow(res.body.orderId)).status).toBe('authorized');
      expect(delivered()).toBe(true);
    } finally {
      sandbox.setWebhookUrl(undefined);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });

  it('refuses a webhook with a forged signature (401) and changes nothing', async () => {
    const me = await buyer();
    const res = await payNew(me, await item(), CARD.threeDs);
    await challenge(res.body.redirectLink, 'approve');
    const paymentId = (await chargeRow(res.body.orderId)).paymentId!;
    const stored = async () => (await t.database.db.select({ n: count() }).from(webhookEvents))[0]!.n;
    const before = await stored();
    const raw = JSON.stringify({
      id: 'evt_forged',
      type: 'payment_approved',
      data: { id: paymentId, reference: res.body.orderId },
    });
    const forged = createHmac('sha256', 'not-the-key').update(raw).digest('hex');
    for (const signature of [forged, '', 'zz', signedEvent({ other: true }).signature]) {
      const answer = await postWebhook(raw, signature);
      expect(answer.status).toBe(401);
    }
    expect(await stored()).toBe(before);
    expect((await orderRow(res.body.orderId)).status).toBe('created');
    expect(await fulfilJobs(res.body.orderId)).toBe(0);
    // Signed garbage is a 400, not a 500.
    const garbage = signedEvent({ hello: 'world' });
    expect((await postWebhook(garbage.raw, garbage.signature)).status).toBe(400);
  });

  /* ---- free claims ---- */

  it('claims a free blueprint once per user; refuses items that are not free, sold out, or a wallet-less caller', async () => {
    const me = await buyer();
    const free = await item({ price: 0, quantity: 2 });
    const res = await t.request('POST', '/api/free-blueprint-claims', {
      token: me.authToken,
      body: { blueprintId: free.id },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: me.id,
      blueprintId: free.id,
      order: {
        method: 'freeBlueprintClaim',
        amount: 0,
        status: 'authorized',
        walletAddress: me.walletAddress,
      },
    });
    expect(await fulfilJobs(res.body.orderId)).toBe(1);
    const twice = await t.request('POST', '/api/free-blueprint-claims', {
      token: me.authToken,
      body: { blueprintId: free.id },
    });
    expect(twice).toMatchObject({ status: 400, body: { code: 'CLAIM_BLUEPRINT' } });
    const listed = await t.request('GET', `/api/free-blueprint-claims?blueprintId=${free.id}`, {
      token: me.authToken,
    });
    expect(listed.body.results.map((c: Json) => c.id)).toEqual([res.body.id]);
    expect(await available(free.id)).toBe(1);

    // Concurrent claims of one user: one wins.
    const racer = await buyer();
    const racing = await Promise.all(
      Array.from({ length: 3 }, () =>
        t.request('POST', '/api/free-blueprint-claims', {
          token: racer.authToken,
          body: { blueprintId: free.id },
        }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    // Sold out now.
    const late = await t.request('POST', '/api/free-blueprint-claims', {
      token: (await buyer()).authToken,
      body: { blueprintId: free.id },
    });
    expect(late).toMatchObject({ status: 400, body: { code: 'CLAIM_BLUEPRINT' } });
    // Not free, not on sale, no wallet, unknown.
    const paid = await item({ price: 100 });
    expect(
      await t.request('POST', '/api/free-blueprint-claims', {
        token: me.authToken,
        body: { blueprintId: paid.id },
      }),
    ).toMatchObject({ status: 400, body: { code: 'CLAIM_BLUEPRINT' } });
    const draft = await item({ price: 0, state: 'created' });
    expect(
      await t.request('POST', '/api/free-blueprint-claims', {
        token: me.authToken,
        body: { blueprintId: draft.id },
      }),
    ).toMatchObject({ status: 400, body: { code: 'CLAIM_BLUEPRINT' } });
    const other = await item({ price: 0 });
    expect(
      await t.request('POST', '/api/free-blueprint-claims', {
        token: (await buyer({ wallet: false })).authToken,
        body: { blueprintId: other.id },
      }),
    ).toMatchObject({ status: 400, body: { code: 'WALLET_REQUIRED' } });
    expect(
      await t.request('POST', '/api/free-blueprint-claims', {
        token: me.authToken,
        body: { blueprintId: crypto.randomUUID() },
      }),
    ).toMatchObject({ status: 404 });
    // A free item is claimed, never bought.
    expect(
      await charge(me, {
        item: { kind: 'blueprint', id: other.id },
        expectedPrice: 0,
        billingInfo: billing(await cardToken(CARD.visa)),
      }),
    ).toMatchObject({ status: 400, body: { code: 'NOT_PURCHASABLE' } });
  });

  /* ---- contention ---- */

  it('sells the last 5 editions to exactly 5 of 200 concurrent buyers; the others get SOLD_OUT', async () => {
    const bp = await item({ price: 1200, quantity: 100, quantityAvailable: 5 });
    const db = t.database.db;
    const tokens = createTokens(JWT_SECRET, 3600, t.clock.now);
    const buyers = await db
      .insert(users)
      .values(
        Array.from({ length: 200 }, (_, i) => ({
          email: `racer-${i}-${randomBytes(4).toString('hex')}@example.com`,
          username: `racer_${i}_${randomBytes(4).toString('hex')}`,
          passwordHash: 'not-a-password-hash',
          firstName: 'Racer',
          walletAddress: flowAddress(),
        })),
      )
      .returning();
    const now = t.clock.now();
    const opened = await db
      .insert(sessions)
      .values(
        buyers.map((u) => ({
          userId: u.id,
          refreshHash: randomBytes(16).toString('hex'),
          refreshedAt: now,
          expiresAt: new Date(now.getTime() + 3_600_000),
        })),
      )
      .returning();
    const authTokens = await Promise.all(buyers.map((u, i) => tokens.issue(u, opened[i]!.id)));
    const cardTokens = await Promise.all(buyers.map(() => cardToken(CARD.visa)));
    const paymentsBefore = calls.requestPayment;
    const capturesBefore = calls.capture;

    const started = performance.now();
    const answers = await Promise.all(
      buyers.map((_, i) =>
        t.request('POST', '/api/checkout-com-charges', {
          token: authTokens[i],
          // Each buyer from an address of their own (an address holds one unit of an item).
          headers: { 'x-test-address': `10.1.${i >> 8}.${i & 255}` },
          body: {
            item: { kind: 'blueprint', id: bp.id },
            expectedPrice: 1200,
            idempotencyKey: key(),
            billingInfo: billing(cardTokens[i]!),
          },
        }),
      ),
    );
    const ms = performance.now() - started;
    const statuses = answers.map((a) => a.status);
    const won = answers.filter((a) => a.status === 201);
    const soldOut = answers.filter((a) => a.status === 409 && a.body.code === 'SOLD_OUT');
    console.log(
      `[${database}] 200 concurrent buyers, 5 editions left: ${won.length} authorized, ${soldOut.length} SOLD_OUT, ` +
        `other ${statuses.length - won.length - soldOut.length}; ${calls.requestPayment - paymentsBefore} provider payments, ` +
        `${calls.capture - capturesBefore} captures; ${ms.toFixed(0)} ms`,
    );
    expect(won).toHaveLength(5);
    expect(soldOut).toHaveLength(195);
    expect(won.every((a) => a.body.success && a.body.order.status === 'authorized')).toBe(true);
    expect(calls.requestPayment - paymentsBefore).toBe(5);
    expect(calls.capture - capturesBefore).toBe(0);
    expect(await available(bp.id)).toBe(0);
    const placed = await db.select().from(orders).where(eq(orders.itemId, bp.id));
    expect(placed).toHaveLength(5);
    expect(placed.every((o) => o.status === 'authorized' && o.reserved)).toBe(true);
  }, 120_000);

  it('limits card checks: 5 per account in 10 minutes, 20 per address in an hour, then 429 with Retry-After and the provider is not asked', async () => {
    const me = await buyer();
    const bp = await item({ price: 2500 });
    const before = calls.requestPayment;
    // Card testing: numbers tried one after another, by charges and by saving the card.
    const tries = [];
    for (let i = 0; i < 5; i++) {
      const token = await cardToken(CARD.declined);
      tries.push(
        i % 2 === 0
          ? await charge(me, {
              item: { kind: 'blueprint', id: bp.id },
              expectedPrice: 2500,
              billingInfo: billing(token),
            })
          : await t.request('POST', '/api/billing-info', { token: me.authToken, body: billing(token) }),
      );
    }
    expect(tries.map((r) => [r.status, r.body.code])).toEqual([
      [402, 'CARD_DECLINED'],
      [400, 'CARD_DECLINED'],
      [402, 'CARD_DECLINED'],
      [400, 'CARD_DECLINED'],
      [402, 'CARD_DECLINED'],
    ]);
    expect(calls.requestPayment - before).toBe(5);
    const sixth = await payNew(me, bp);
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe('RATE_LIMITED');
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(sixth.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    const saving = await t.request('POST', '/api/billing-info', {
      token: me.authToken,
      body: billing(await cardToken(CARD.visa)),
    });
    expect(saving.status).toBe(429);
    // Nothing was held or asked for the refused ones.
    expect(calls.requestPayment - before).toBe(5);
    expect(await available(bp.id)).toBe(10);
    // Ten minutes later the account may try again.
    t.clock.advance(10 * 60_000 + 1000);
    expect((await payNew(me, bp)).status).toBe(201);

    // From one address, accounts count together: 20 checks in an hour, whoever makes them.
    const others = await Promise.all(Array.from({ length: 5 }, () => buyer()));
    const statuses: number[] = [];
    for (const who of others)
      for (let i = 0; i < 4; i++) {
        const shop = await item({ price: 2500 });
        statuses.push((await payNew(who, shop, CARD.declined)).status);
      }
    // The first account's 6 checks this hour count too.
    expect(statuses.filter((s) => s === 402)).toHaveLength(14);
    expect(statuses.slice(14).every((s) => s === 429)).toBe(true);
    // Another address is not limited by this one.
    t.address = '203.0.113.77';
    expect((await payNew(others[4]!, await item(), CARD.declined)).status).toBe(402);
  });

  it('settles only a payment of the order’s amount and currency; any other is held for review and never minted', async () => {
    const admin = await registerAdmin(t);
    for (const [what, change] of [
      ['another amount', (p: ProviderPayment) => ({ ...p, amount: 1 })],
      ['another currency', (p: ProviderPayment) => ({ ...p, currency: 'EUR' })],
    ] as const) {
      const me = await buyer();
      const bp = await item({ price: 3100 });
      const res = await payNew(me, bp, CARD.threeDs);
      expect(res.status).toBe(201);
      const sid = await challenge(res.body.redirectLink, 'approve');
      tamper = change;
      try {
        const synced = await t.request('PATCH', `/api/checkout-com-charges/${res.body.id}/actions/sync`, {
          token: me.authToken,
          body: { ckoSessionId: sid },
        });
        expect([what, synced.status]).toEqual([what, 200]);
        expect(synced.body).toMatchObject({ success: false, order: { status: 'review' } });
      } finally {
        tamper = undefined;
      }
      // Nothing to mint, the unit back on sale; a later true report changes nothing.
      expect(await fulfilJobs(res.body.orderId)).toBe(0);
      expect(await available(bp.id)).toBe(10);
      await t.request('PATCH', `/api/checkout-com-charges/${res.body.id}/actions/sync`, {
        token: me.authToken,
        body: {},
      });
      const order = await t.request('GET', `/api/orders/${res.body.orderId}`, { token: me.authToken });
      expect(order.body).toMatchObject({ status: 'review', failure: { code: 'PAYMENT_MISMATCH' } });
      expect(order.body.events.map((e: Json) => e.type)).toEqual(['created', 'review']);
      expect(order.body.events[1].detail).toMatch(
        /^The payment provider reported (\$0\.01|3100 cents of EUR) for an order of \$31\.$/,
      );
      expect(await fulfilJobs(res.body.orderId)).toBe(0);
      // The back office's charges list shows it, narrowed to those held for review.
      const listed = await t.request(
        'GET',
        `/api/admin/charges?status=review&searchText=${res.body.orderId}`,
        {
          token: admin.authToken,
        },
      );
      expect(listed.body.results).toEqual([
        expect.objectContaining({ id: res.body.orderId, status: 'review', failureCode: 'PAYMENT_MISMATCH' }),
      ]);
    }
  });

  it('refuses a key of another rail’s purchase with 400, never a 500', async () => {
    const me = await buyer();
    const bp = await item({ price: 2500 });
    const key = `shared-${randomBytes(4).toString('hex')}`;
    // A balance order of the buyer's under the key (paid on chain: no provider of ours to ask here).
    await t.database.db.insert(orders).values({
      buyerId: me.id,
      idempotencyKey: key,
      method: 'fusd',
      itemKind: 'blueprint',
      itemId: bp.id,
      title: bp.title,
      amount: bp.price,
      walletAddress: me.walletAddress!,
      expiresAt: new Date(Date.now() + 15 * 60_000),
    });
    const before = calls.requestPayment;
    const res = await payNew(me, bp, CARD.visa, { idempotencyKey: key });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_VALUE', field: 'idempotencyKey' } });
    expect(calls.requestPayment).toBe(before);
  });
});
