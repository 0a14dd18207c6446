import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CoinbaseSandbox,
  SANDBOX_API_KEY,
  SANDBOX_WEBHOOK_SECRET,
  startCoinbaseSandbox,
} from '../../sandbox/coinbase-commerce/index';
import { FULFIL_JOB, SEND_FUSD_JOB } from '../../server/checkout/orders';
import {
  blueprints,
  coinbaseCharges,
  jobs,
  orderEvents,
  orders,
  users,
  webhookEvents,
} from '../../server/db/schema';
import { createCoinbaseProvider } from '../../server/payments/coinbase-commerce';
import type { CryptoCharge, CryptoProvider } from '../../server/payments/crypto-provider';
import { insertBlueprint } from '../../server/seed/factory';
import { databases, flowAddress, type Json, register, type TestApi, useTestApp } from './support/harness';
import { creator } from './support/sales';

/**
 * Crypto charges against the embedded Coinbase Commerce-shaped sandbox over real HTTP, its
 * webhooks delivered to the app served on a port: a direct purchase reserves a unit and is
 * authorized when the buyer pays on the hosted page (fulfil job queued); cancel, expiry,
 * underpayment, payment after the order ended (refunded as FUSD), top-ups (sendFusd job), repeated
 * and forged webhooks, and bad input. Minting and FUSD transfers run on the chain in
 * tests/chain/crypto.test.ts.
 */

describe.each(databases)('crypto charges on %s', (database) => {
  let sandbox: CoinbaseSandbox;
  let provider: CryptoProvider;
  let server: Server;
  /** Runs when the provider has answered a create, before the app sees the answer. */
  let afterCreate: ((charge: CryptoCharge) => Promise<void>) | undefined;
  const t: TestApi = useTestApp(
    database,
    {},
    {
      cryptoProvider: {
        createCharge: async (r) => {
          const charge = await provider.createCharge(r);
          await afterCreate?.(charge);
          return charge;
        },
        getCharge: (id) => provider.getCharge(id),
        cancelCharge: (id) => provider.cancelCharge(id),
        verifyWebhook: (raw, sig) => provider.verifyWebhook(raw, sig),
      },
    },
  );

  beforeAll(async () => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    sandbox = await startCoinbaseSandbox({
      port: 0,
      webhookUrl: `http://127.0.0.1:${port}/api/webhooks/coinbase-commerce`,
      retrySchedule: [],
      confirmAfterMs: 100,
    });
    provider = createCoinbaseProvider({
      apiKey: SANDBOX_API_KEY,
      apiUrl: sandbox.url,
      webhookSecret: SANDBOX_WEBHOOK_SECRET,
    });
  });
  afterAll(async () => {
    await sandbox?.close();
    await new Promise<void>((resolve) => {
      server?.close(() => resolve());
      server?.closeAllConnections();
    });
  });

  async function buyer(options: { wallet?: boolean } = {}) {
    const me = await register(t);
    const walletAddress = options.wallet === false ? null : flowAddress();
    if (walletAddress) await t.database.db.update(users).set({ walletAddress }).where(eq(users.id, me.id));
    return { ...me, walletAddress };
  }
  async function item(values: { price?: number; quantity?: number } = {}) {
    const shop = await creator(t);
    return insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Item ${randomBytes(3).toString('hex')}`,
      price: values.price ?? 2500,
      quantity: values.quantity ?? 10,
    });
  }
  const key = () => `key-${randomBytes(8).toString('hex')}`;
  const create = (who: { authToken: string }, body: Record<string, unknown>) =>
    t.request('POST', '/api/coinbase-charges', {
      token: who.authToken,
      body: { idempotencyKey: key(), ...body },
    });
  const buy = (who: { authToken: string }, bp: { id: string; price: number }, extra = {}) =>
    create(who, { type: 'directPurchase', blueprintId: bp.id, expectedPrice: bp.price, ...extra });

  /** Acts on the hosted page as the buyer would. */
  async function onPage(hostedUrl: string, action: 'pay' | 'underpay' | 'expire' | 'cancel') {
    const res = await fetch(hostedUrl, {
      method: 'POST',
      body: new URLSearchParams({ coin: 'ethereum', action }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    return res.headers.get('location');
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
  const chargeRow = async (id: string) =>
    (await t.database.db.select().from(coinbaseCharges).where(eq(coinbaseCharges.id, id)))[0]!;
  const jobsOf = async (kind: string, k: string) =>
    (
      await t.database.db
        .select({ n: count() })
        .from(jobs)
        .where(and(eq(jobs.kind, kind), eq(jobs.key, k)))
    )[0]!.n;
  async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 5000): Promise<T> {
    for (const end = Date.now() + ms; ; ) {
      const v = await read();
      if (done(v) || Date.now() > end) return v;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('opens a hosted charge for the price, one unit reserved; paying on the page authorizes the order', async () => {
    const me = await buyer();
    const bp = await item({ price: 1250 });
    const idempotencyKey = key();
    const res = await buy(me, bp, { idempotencyKey });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      type: 'directPurchase',
      status: 'NEW',
      amount: 1250,
      paid: 0,
      unresolved: true,
      success: false,
      walletAddress: me.walletAddress,
      order: { method: 'coinbase', status: 'created', amount: 1250 },
    });
    expect(res.body.hostedUrl).toMatch(/\/charges\/[A-Z0-9]{8}$/);
    expect(await available(bp.id)).toBe(9);
    // A retry with the same key answers the same charge.
    const again = await buy(me, bp, { idempotencyKey });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(res.body.id);
    expect(await available(bp.id)).toBe(9);

    const location = await onPage(res.body.hostedUrl, 'pay');
    expect(location).toContain(`/ordercomplete/${bp.id}?e=blueprint&t=`);
    // The purchase-complete page follows this charge (a payment that comes too late is refunded there).
    expect(new URL(location!).searchParams.get('type')).toBe('coinbase');
    expect(new URL(location!).searchParams.get('charge')).toBe(res.body.id);
    const order = await until(
      () => orderRow(res.body.order.id),
      (o) => o.status !== 'created',
    );
    expect(order.status).toBe('authorized');
    expect(await jobsOf(FULFIL_JOB, order.id)).toBe(1);
    // COMPLETED follows PENDING; the order is authorized once.
    const row = await until(
      () => chargeRow(res.body.id),
      (c) => c.status === 'COMPLETED',
    );
    expect(row).toMatchObject({ status: 'COMPLETED', paid: 1250 });
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    // The payment was seen (PENDING), then confirmed (COMPLETED): minted only on the confirmation.
    expect(events.map((e) => e.type).sort()).toEqual(['authorized', 'created', 'payment_seen']);
    const got = await t.request('GET', `/api/coinbase-charges/${res.body.id}`, { token: me.authToken });
    expect(got.body).toMatchObject({ success: true, unresolved: false, hostedUrl: null });
  });

  it('cancels an unpaid charge (unit released); a paid one cannot be canceled', async () => {
    const me = await buyer();
    const bp = await item();
    const res = await buy(me, bp);
    const canceled = await t.request('PATCH', `/api/coinbase-charges/${res.body.id}`, {
      token: me.authToken,
      body: { status: 'CANCELED' },
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      status: 'CANCELED',
      order: { status: 'canceled' },
      unresolved: false,
    });
    expect(await available(bp.id)).toBe(10);

    const paid = await buy(me, bp);
    await onPage(paid.body.hostedUrl, 'pay');
    await until(
      () => orderRow(paid.body.order.id),
      (o) => o.status === 'authorized',
    );
    const late = await t.request('PATCH', `/api/coinbase-charges/${paid.body.id}`, {
      token: me.authToken,
      body: { status: 'CANCELED' },
    });
    expect(late).toMatchObject({ status: 400, body: { code: 'CHARGE_NOT_CANCELLABLE' } });
  });

  it('cancel on the hosted page lands on /coinbasecanceled/{id}; the order is canceled by the webhook', async () => {
    const me = await buyer();
    const bp = await item();
    const res = await buy(me, bp);
    const location = await onPage(res.body.hostedUrl, 'cancel');
    expect(location).toBe(`http://vitrine.test/coinbasecanceled/${res.body.id}`);
    const order = await until(
      () => orderRow(res.body.order.id),
      (o) => o.status !== 'created',
    );
    expect(order.status).toBe('canceled');
    expect(await available(bp.id)).toBe(10);
  });

  it('one open crypto charge at a time (CHARGE_PENDING with its id); expiry ends it and frees the unit', async () => {
    const me = await buyer();
    const bp = await item();
    const first = await buy(me, bp);
    const second = await buy(me, bp);
    expect(second).toMatchObject({ status: 409, body: { code: 'CHARGE_PENDING', chargeId: first.body.id } });
    await onPage(first.body.hostedUrl, 'expire');
    const order = await until(
      () => orderRow(first.body.order.id),
      (o) => o.status !== 'created',
    );
    expect(order).toMatchObject({ status: 'expired', reserved: false });
    expect(await available(bp.id)).toBe(10);
    expect((await buy(me, bp)).status).toBe(201);
  });

  it('underpaid: the order waits; at expiry what arrived goes back as FUSD (sendFusd job)', async () => {
    const me = await buyer();
    const bp = await item();
    const res = await buy(me, bp);
    await onPage(res.body.hostedUrl, 'underpay');
    const row = await until(
      () => chargeRow(res.body.id),
      (c) => c.status === 'UNRESOLVED',
    );
    expect(row).toMatchObject({ context: 'UNDERPAID', paid: 1250 });
    expect((await orderRow(res.body.order.id)).status).toBe('created');
    const listed = await t.request('GET', `/api/coinbase-charges?userId=${me.id}&statuses=UNRESOLVED`, {
      token: me.authToken,
    });
    expect(listed.body.results.map((c: Json) => c.id)).toEqual([res.body.id]);
    // The order's time runs out: released, and the part paid is refunded as FUSD.
    t.clock.advance(66 * 60_000);
    const { expireOrders } = await import('../../server/checkout/workflow/expire');
    await expireOrders(t.database.db, t.clock.now());
    t.clock.reset();
    expect(await orderRow(res.body.order.id)).toMatchObject({ status: 'expired', reserved: false });
    expect(await jobsOf(SEND_FUSD_JOB, res.body.id)).toBe(1);
  });

  it('tops up: the amount asked, paid on the hosted page, queues the FUSD transfer', async () => {
    const me = await buyer();
    const res = await create(me, { type: 'topup', topupAmount: 5000 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ type: 'topup', amount: 5000, order: null, status: 'NEW' });
    await onPage(res.body.hostedUrl, 'pay');
    await until(
      () => jobsOf(SEND_FUSD_JOB, res.body.id),
      (n) => n === 1,
    );
    expect(await jobsOf(SEND_FUSD_JOB, res.body.id)).toBe(1);
  });

  it('sends a top-up opened from a purchase back to its page with topup={id}, paid or canceled', async () => {
    const listing = randomUUID();
    const returnTo = `/nft/4711?listing=${listing}`;
    const paid = await create(await buyer(), { type: 'topup', topupAmount: 900, returnTo });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(await onPage(paid.body.hostedUrl, 'pay')).toBe(
      `${t.config.publicUrl}/nft/4711?listing=${listing}&topup=${paid.body.id}`,
    );
    const canceled = await create(await buyer(), { type: 'topup', topupAmount: 900, returnTo });
    expect(await onPage(canceled.body.hostedUrl, 'cancel')).toBe(
      `${t.config.publicUrl}/nft/4711?listing=${listing}&topup=${canceled.body.id}`,
    );
    // A topup already in the path is the charge's own.
    const again = await create(await buyer(), {
      type: 'topup',
      topupAmount: 900,
      returnTo: '/nft/4711?buy=balance&topup=old',
    });
    expect(await onPage(again.body.hostedUrl, 'pay')).toBe(
      `${t.config.publicUrl}/nft/4711?buy=balance&topup=${again.body.id}`,
    );
    // Without a path: paid to Settings → Wallet, canceled to the canceled page.
    const plain = await create(await buyer(), { type: 'topup', topupAmount: 900 });
    expect(await onPage(plain.body.hostedUrl, 'cancel')).toBe(
      `${t.config.publicUrl}/coinbasecanceled/${plain.body.id}`,
    );
    const plainPaid = await create(await buyer(), { type: 'topup', topupAmount: 900 });
    expect(await onPage(plainPaid.body.hostedUrl, 'pay')).toBe(
      `${t.config.publicUrl}/settings/wallet?topup=${plainPaid.body.id}`,
    );
  });

  it('takes only a path of this site to return to: never another origin', async () => {
    const me = await buyer();
    for (const returnTo of [
      'https://evil.example/nft/1',
      '//evil.example/nft/1',
      '/\\evil.example/nft/1',
      '/\t/evil.example',
      'nft/1',
      'javascript:alert(1)',
      '/nft/1#listing',
      '/nft/1 x',
      `/nft/${'1'.repeat(600)}`,
      '',
      42,
    ]) {
      const res = await create(me, { type: 'topup', topupAmount: 900, returnTo });
      expect({ returnTo, status: res.status, body: res.body }).toMatchObject({
        returnTo,
        status: 400,
        body: { code: 'INVALID_VALUE', field: 'returnTo' },
      });
    }
    expect(
      await t.database.db
        .select({ n: count() })
        .from(coinbaseCharges)
        .where(eq(coinbaseCharges.buyerId, me.id)),
    ).toEqual([{ n: 0 }]);
  });

  /** A webhook delivery as the provider signs it: the charge as the provider has it, with `timeline`. */
  async function providerEvent(
    code: string,
    type: string,
    statuses: string[],
    eventId = randomUUID(),
    // biome-ignore lint/suspicious/noExplicitAny: the provider's charge JSON, changed field by field
    change: (data: any) => any = (data) => data,
  ) {
    const charge = await provider.getCharge(code);
    const data = (
      await (
        await fetch(`${sandbox.url}/charges/${charge.id}`, {
          headers: { 'X-CC-Api-Key': SANDBOX_API_KEY, 'X-CC-Version': '2018-03-22' },
        })
      ).json()
    ).data;
    const event = {
      id: 1,
      scheduled_for: new Date().toISOString(),
      attempt_number: 1,
      event: {
        id: eventId,
        resource: 'event',
        type,
        api_version: '2018-03-22',
        created_at: new Date().toISOString(),
        data: change({
          ...data,
          timeline: statuses.map((status) => ({ time: new Date().toISOString(), status })),
        }),
      },
    };
    const raw = JSON.stringify(event);
    return {
      raw,
      id: eventId,
      signature: createHmac('sha256', SANDBOX_WEBHOOK_SECRET).update(raw).digest('hex'),
    };
  }
  /** The charge paid with one confirmed payment of `amount` dollars (text), as the provider lists it. */
  // biome-ignore lint/suspicious/noExplicitAny: the provider's charge JSON
  const paidWith = (amount: string) => (d: any) => ({
    ...d,
    payments: [{ value: { local: { amount, currency: 'USD' } }, status: 'CONFIRMED' }],
  });
  /** The charge paid in full: one confirmed payment of its price. */
  // biome-ignore lint/suspicious/noExplicitAny: the provider's charge JSON
  const paidInFull = (d: any) => paidWith(d.pricing.local.amount)(d);
  /** A charge:confirmed delivery (COMPLETED) of the charge, its data changed by `change`. */
  // biome-ignore lint/suspicious/noExplicitAny: the provider's charge JSON
  const confirmedEvent = (code: string, change: (d: any) => any = paidInFull) =>
    providerEvent(code, 'charge:confirmed', ['NEW', 'PENDING', 'COMPLETED'], undefined, change);
  const postWebhook = (raw: string, sig?: string) =>
    t.request('POST', '/api/webhooks/coinbase-commerce', {
      raw,
      headers: { 'content-type': 'application/json', ...(sig ? { 'x-cc-webhook-signature': sig } : {}) },
    });

  it('a forged or missing signature is 401; a payment seen on the network, heard 10 times, holds the unit while it confirms', async () => {
    const me = await buyer();
    const bp = await item();
    const res = await buy(me, bp);
    const pending = await providerEvent(res.body.code, 'charge:pending', ['NEW', 'PENDING']);
    expect((await postWebhook(pending.raw)).status).toBe(401);
    expect(
      (
        await postWebhook(
          pending.raw,
          pending.signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
        )
      ).status,
    ).toBe(401);
    expect(
      (await postWebhook(pending.raw.replace('charge:pending', 'charge:confirmed'), pending.signature))
        .status,
    ).toBe(401);
    expect((await orderRow(res.body.order.id)).status).toBe('created');

    // Seen on the network (PENDING), ten times: the order keeps its unit and waits; nothing minted.
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => postWebhook(pending.raw, pending.signature)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const waiting = await orderRow(res.body.order.id);
    expect(waiting.status).toBe('created');
    expect(waiting.reserved).toBe(true);
    // Its hold now lasts while the network confirms (two hours from the payment).
    expect(waiting.expiresAt.getTime()).toBeGreaterThan(Date.now() + 110 * 60_000);
    expect(await jobsOf(FULFIL_JOB, res.body.order.id)).toBe(0);
    const seen = await t.request('GET', `/api/orders/${res.body.order.id}`, { token: me.authToken });
    expect(seen.body.events.map((e: Json) => e.type)).toEqual(['created', 'payment_seen']);

    // Confirmed: authorized (a confirmation replayed 10 times pays once: the rails' contract).
    const confirmed = await confirmedEvent(res.body.code);
    expect((await postWebhook(confirmed.raw, confirmed.signature)).status).toBe(200);
    expect((await orderRow(res.body.order.id)).status).toBe('authorized');
    for (const id of [pending.id, confirmed.id]) {
      const stored = await t.database.db
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.id, `cc:${id}`));
      expect(stored).toHaveLength(1);
    }
  });

  it('credits a top-up only once the network confirms its payment: nothing is sent while it is only seen', async () => {
    const me = await buyer();
    const res = await create(me, { type: 'topup', topupAmount: 2000 });
    expect(res.status).toBe(201);
    const pending = await providerEvent(res.body.code, 'charge:pending', ['NEW', 'PENDING']);
    expect((await postWebhook(pending.raw, pending.signature)).status).toBe(200);
    expect(await jobsOf(SEND_FUSD_JOB, res.body.id)).toBe(0);
    const read = await t.request('GET', `/api/coinbase-charges/${res.body.id}`, { token: me.authToken });
    expect(read.body).toMatchObject({ status: 'PENDING', fusdTransactionId: null });
    const confirmed = await confirmedEvent(res.body.code);
    expect((await postWebhook(confirmed.raw, confirmed.signature)).status).toBe(200);
    expect(await jobsOf(SEND_FUSD_JOB, res.body.id)).toBe(1);
  });

  it('never moves a charge back: a late charge:created after the payment changes nothing', async () => {
    const me = await buyer();
    const bp = await item();
    const res = await buy(me, bp);
    await onPage(res.body.hostedUrl, 'pay');
    await until(
      () => chargeRow(res.body.id),
      (c) => c.status === 'COMPLETED',
    );
    const data = (
      (await (
        await fetch(`${sandbox.url}/charges/${res.body.code}`, {
          headers: { 'X-CC-Api-Key': SANDBOX_API_KEY, 'X-CC-Version': '2018-03-22' },
        })
      ).json()) as Json
    ).data;
    const late = {
      id: 2,
      scheduled_for: new Date().toISOString(),
      attempt_number: 1,
      event: {
        id: crypto.randomUUID(),
        resource: 'event',
        type: 'charge:created',
        api_version: '2018-03-22',
        created_at: new Date().toISOString(),
        data: { ...data, timeline: [data.timeline[0]], payments: [] },
      },
    };
    const raw = JSON.stringify(late);
    const signature = createHmac('sha256', SANDBOX_WEBHOOK_SECRET).update(raw).digest('hex');
    const answer = await t.request('POST', '/api/webhooks/coinbase-commerce', {
      raw,
      headers: { 'content-type': 'application/json', 'x-cc-webhook-signature': signature },
    });
    expect(answer.status).toBe(200);
    expect(await chargeRow(res.body.id)).toMatchObject({ status: 'COMPLETED', paid: 2500 });
    expect((await orderRow(res.body.order.id)).status).toBe('authorized');
  });

  it('an underpaid top-up still open after its time is ended and what arrived goes back (sendFusd)', async () => {
    const me = await buyer();
    const res = await create(me, { type: 'topup', topupAmount: 3000 });
    await onPage(res.body.hostedUrl, 'underpay');
    await until(
      () => chargeRow(res.body.id),
      (c) => c.status === 'UNRESOLVED',
    );
    expect(await jobsOf(SEND_FUSD_JOB, res.body.id)).toBe(0);
    const { expireTopups } = await import('../../server/checkout/crypto/charges');
    expect(await expireTopups(t.database.db, new Date(Date.now() + 30 * 60_000))).toBe(0);
    expect(await expireTopups(t.database.db, new Date(Date.now() + 66 * 60_000))).toBe(1);
    expect(await chargeRow(res.body.id)).toMatchObject({ status: 'EXPIRED', paid: 1500 });
    expect(await jobsOf(SEND_FUSD_JOB, res.body.id)).toBe(1);
  });

  it('a key already used for another kind of purchase is refused, not answered with that purchase', async () => {
    const me = await buyer();
    const bp = await item();
    const first = await create(me, { type: 'topup', topupAmount: 1000, idempotencyKey: 'shared-key-123' });
    expect(first.status).toBe(201);
    await t.request('PATCH', `/api/coinbase-charges/${first.body.id}`, {
      token: me.authToken,
      body: { status: 'CANCELED' },
    });
    const { reserveOn } = await import('../../server/checkout/workflow/reserve');
    const { cardCharge, cardRail } = await import('../../server/checkout/card/rail');
    const { findCheckoutItem } = await import('../../server/checkout/items');
    const record = (await findCheckoutItem(t.database.db, { kind: 'blueprint', id: bp.id }, new Date()))!;
    await reserveOn(t.database.db, cardRail, {
      buyerId: me.id,
      clientAddress: t.address,
      idempotencyKey: 'card-key-456',
      item: record,
      walletAddress: me.walletAddress!,
      now: new Date(),
      charge: cardCharge(me.id, new Date(), { billingInfoId: null, saveCard: null }),
    });
    const reused = await buy(me, bp, { idempotencyKey: 'card-key-456' });
    expect(reused).toMatchObject({ status: 400, body: { code: 'INVALID_VALUE', field: 'idempotencyKey' } });
  });

  it('refuses bad input with its error codes and never a 500', async () => {
    const me = await buyer();
    const bp = await item();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ type: 'directPurchase', expectedPrice: 2500 }, 400, 'INVALID_VALUE'],
      [
        { type: 'directPurchase', blueprintId: bp.id, blueprintPackId: bp.id, expectedPrice: 2500 },
        400,
        'INVALID_VALUE',
      ],
      [{ type: 'directPurchase', blueprintId: 'nope', expectedPrice: 2500 }, 400, 'INVALID_VALUE'],
      [{ type: 'directPurchase', blueprintId: bp.id, expectedPrice: 2499 }, 409, 'PRICE_CHANGED'],
      [{ type: 'directPurchase', blueprintId: bp.id, expectedPrice: 25.5 }, 400, 'INVALID_VALUE'],
      [{ type: 'directPurchase', blueprintId: crypto.randomUUID(), expectedPrice: 2500 }, 404, 'not_found'],
      [
        { type: 'directPurchase', nftSaleListingId: crypto.randomUUID(), expectedPrice: 2500 },
        400,
        'NOT_PURCHASABLE',
      ],
      [{ type: 'topup', topupAmount: 50 }, 400, 'INVALID_VALUE'],
      [{ type: 'topup', topupAmount: 1_000_001 }, 400, 'INVALID_VALUE'],
      [{ type: 'topup', topupAmount: '5000' }, 400, 'INVALID_VALUE'],
      [{ type: 'refund', topupAmount: 5000 }, 400, 'INVALID_VALUE'],
    ];
    for (const [body, status, code] of cases) {
      const res = await create(me, body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
    }
    const walletless = await buyer({ wallet: false });
    expect(await buy(walletless, bp)).toMatchObject({ status: 400, body: { code: 'WALLET_REQUIRED' } });
    // Someone else's charge is not found; another user's list is forbidden.
    const mine = await buy(me, bp);
    const other = await buyer();
    expect(
      (await t.request('GET', `/api/coinbase-charges/${mine.body.id}`, { token: other.authToken })).status,
    ).toBe(404);
    expect(
      (
        await t.request('PATCH', `/api/coinbase-charges/${mine.body.id}`, {
          token: other.authToken,
          body: {},
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.request('GET', `/api/coinbase-charges?userId=${me.id}`, { token: other.authToken })).status,
    ).toBe(403);
    expect((await t.request('GET', '/api/coinbase-charges/nope', { token: me.authToken })).status).toBe(404);
  });

  it('a provider answer without a hosted page: 502 CREATE_COINBASE_CHARGE, nothing held, charged or left open', async () => {
    const me = await buyer();
    const bp = await item();
    sandbox.setHostedPages(false);
    let res: Awaited<ReturnType<typeof buy>>;
    try {
      res = await buy(me, bp);
    } finally {
      sandbox.setHostedPages(true);
    }
    expect(res).toMatchObject({
      status: 502,
      body: {
        code: 'CREATE_COINBASE_CHARGE',
        message: 'We could not start the crypto payment. You were not charged; please try again.',
      },
    });
    // No provider charge or page is recorded on our charge; its order ended and its unit is back.
    const rows = await t.database.db.select().from(coinbaseCharges).where(eq(coinbaseCharges.buyerId, me.id));
    expect(rows).toMatchObject([
      { status: 'CANCELED', providerChargeId: null, hostedUrl: null, code: null, paid: 0 },
    ]);
    expect(await orderRow(rows[0]!.orderId!)).toMatchObject({ status: 'canceled', reserved: false });
    expect(await available(bp.id)).toBe(10);
    expect(await jobsOf(FULFIL_JOB, rows[0]!.orderId!)).toBe(0);
    expect(await jobsOf(SEND_FUSD_JOB, rows[0]!.id)).toBe(0);
    const open = await t.request('GET', `/api/coinbase-charges?userId=${me.id}&statuses=NEW,UNRESOLVED`, {
      token: me.authToken,
    });
    expect(open.body.results).toEqual([]);
    // Nothing is open: the buyer can pay again.
    expect((await buy(me, bp)).status).toBe(201);
  });

  it('without a hosted page, its charge:created webhook applied first: still 502, nothing recorded or held', async () => {
    const me = await buyer();
    const bp = await item();
    const delivered = sandbox.deliveries.length;
    sandbox.setHostedPages(false);
    // The provider's charge:created webhook reaches the app and is applied before the create answer.
    afterCreate = (charge) =>
      until(
        () =>
          t.database.db.select().from(coinbaseCharges).where(eq(coinbaseCharges.providerChargeId, charge.id)),
        (rows) => rows.length === 1,
      ).then(() => undefined);
    let res: Awaited<ReturnType<typeof buy>>;
    try {
      res = await buy(me, bp);
    } finally {
      afterCreate = undefined;
      sandbox.setHostedPages(true);
    }
    expect(res).toMatchObject({ status: 502, body: { code: 'CREATE_COINBASE_CHARGE' } });
    // The provider's cancel of its charge is delivered too (created, then canceled) and changes nothing.
    const deliveries = await until(
      async () => sandbox.deliveries.slice(delivered),
      (d) => d.length >= 2,
    );
    expect(deliveries.map((d) => d.status)).toEqual([200, 200]);
    const rows = await t.database.db.select().from(coinbaseCharges).where(eq(coinbaseCharges.buyerId, me.id));
    expect(rows).toMatchObject([
      { status: 'CANCELED', providerChargeId: null, hostedUrl: null, code: null, paid: 0 },
    ]);
    expect(await orderRow(rows[0]!.orderId!)).toMatchObject({ status: 'canceled', reserved: false });
    expect(await available(bp.id)).toBe(10);
    expect((await buy(me, bp)).status).toBe(201);
  });

  it('a blueprint with no edition left, or sold out: 409 SOLD_OUT, and nothing is written', async () => {
    const me = await buyer();
    const other = await buyer();
    const bp = await item({ quantity: 1 });
    expect((await buy(other, bp)).status).toBe(201);
    expect(await available(bp.id)).toBe(0);
    const refused = await buy(me, bp);
    expect(refused).toMatchObject({ status: 409, body: { code: 'SOLD_OUT' } });
    expect(refused.body.message).toMatch(/sold out/i);
    expect(
      await t.database.db.select().from(coinbaseCharges).where(eq(coinbaseCharges.buyerId, me.id)),
    ).toEqual([]);
    expect(await t.database.db.select().from(orders).where(eq(orders.buyerId, me.id))).toEqual([]);
    // A blueprint whose state says it is sold out is refused the same way.
    const shop = await creator(t);
    const soldOut = await insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Item ${randomBytes(3).toString('hex')}`,
      price: 2500,
      quantity: 10,
      quantityAvailable: 0,
      state: 'soldOut',
    });
    expect(await buy(me, soldOut)).toMatchObject({ status: 409, body: { code: 'SOLD_OUT' } });
    expect(await t.database.db.select().from(orders).where(eq(orders.buyerId, me.id))).toEqual([]);
    // A top-up is no purchase: it is not sold out.
    expect((await create(me, { type: 'topup', topupAmount: 500 })).status).toBe(201);
  });

  it('a provider that cannot be reached: 502 CRYPTO_PROVIDER and the unit is released', async () => {
    const me = await buyer();
    const bp = await item();
    const real = provider;
    provider = createCoinbaseProvider({
      apiKey: SANDBOX_API_KEY,
      apiUrl: 'http://127.0.0.1:9',
      webhookSecret: 'x',
    });
    try {
      const res = await buy(me, bp);
      expect(res).toMatchObject({ status: 502, body: { code: 'CRYPTO_PROVIDER' } });
    } finally {
      provider = real;
    }
    expect(await available(bp.id)).toBe(10);
    // The failed charge is not open: the buyer can pay again.
    expect((await buy(me, bp)).status).toBe(201);
  });

  it('ten accounts behind one address, ten requests each, leave at least 3 of a 4-unit item to everyone else', async () => {
    const target = await item({ quantity: 4 });
    const attackers = await Promise.all(Array.from({ length: 10 }, () => buyer()));
    const answers = await Promise.all(
      attackers.flatMap((who) => Array.from({ length: 10 }, () => buy(who, target))),
    );
    const held = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    console.info(
      `[${database}] 10 accounts × 10 crypto requests from one address on a 4-unit item: ${held.length} held, ` +
        `${refused.length} refused (${[...new Set(refused.map((a) => `${a.status} ${a.body.code}`))].join(', ')}); ` +
        `${await available(target.id)} units left`,
    );
    expect(held).toHaveLength(1);
    // The holder's other requests meet its own open charge; everyone else's the address's hold.
    expect(new Set(refused.map((a) => a.body.code))).toEqual(new Set(['CHARGE_PENDING', 'ITEM_HELD']));
    expect(refused.every((a) => a.status === 409)).toBe(true);
    expect(await available(target.id)).toBe(3);
    // An eleventh buyer elsewhere reserves one; two more take the last ones.
    for (const [i, who] of (await Promise.all([buyer(), buyer(), buyer()])).entries()) {
      t.address = `198.18.1.${i + 1}`;
      expect((await buy(who, target)).status).toBe(201);
    }
    expect(await available(target.id)).toBe(0);
  });

  it('a hold that expired unpaid is not renewed by its buyer or address for 60 s; others may take it at once', async () => {
    const { expireOrders } = await import('../../server/checkout/workflow/expire');
    const me = await buyer();
    const neighbour = await buyer();
    const stranger = await buyer();
    const target = await item({ quantity: 1 });
    const first = await buy(me, target);
    expect(first.status).toBe(201);
    // The crypto order's hold ends 65 minutes after it was placed; the sweep gives the unit back.
    t.clock.advance(65 * 60_000 + 1000);
    await expireOrders(t.database.db, t.clock.now());
    expect((await orderRow(first.body.order.id)).status).toBe('expired');
    expect(await available(target.id)).toBe(1);
    // An hour on, the session tokens are stale: each signs in again.
    for (const who of [me, neighbour, stranger]) {
      const login = await t.request('POST', '/api/auth/logins', {
        body: { email: who.email, password: who.password },
        headers: { 'x-test-address': '198.18.9.9' },
      });
      who.authToken = login.body.authToken;
    }
    for (const who of [me, neighbour]) {
      const again = await buy(who, target);
      expect([again.status, again.body.code]).toEqual([429, 'HOLD_COOLDOWN']);
      const wait = Number(again.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(55);
      expect(wait).toBeLessThanOrEqual(60);
    }
    expect(await available(target.id)).toBe(1);
    // Someone else, from another address, may take it now.
    t.address = '198.18.2.1';
    const other = await buy(stranger, target);
    expect(other.status).toBe(201);
    await t.request('PATCH', `/api/coinbase-charges/${other.body.id}`, {
      token: stranger.authToken,
      body: { status: 'CANCELED' },
    });
    // A minute after the expiry the first buyer may hold it again.
    t.address = '198.18.2.2';
    t.clock.advance(60_000);
    expect((await buy(me, target)).status).toBe(201);
  });

  it('settles only a charge of the order’s price, paid in full; any other confirmed charge is held for review', async () => {
    const me = await buyer();
    const bp = await item({ price: 2500 });
    const res = await buy(me, bp);
    // A confirmed charge whose price is a dollar (a tampered or mistaken report): nothing minted.
    const cheap = await confirmedEvent(res.body.code, (d) =>
      paidWith('1.00')({ ...d, pricing: { ...d.pricing, local: { amount: '1.00', currency: 'USD' } } }),
    );
    expect((await postWebhook(cheap.raw, cheap.signature)).status).toBe(200);
    expect(await jobsOf(FULFIL_JOB, res.body.order.id)).toBe(0);
    const held = await t.request('GET', `/api/orders/${res.body.order.id}`, { token: me.authToken });
    expect(held.body).toMatchObject({ status: 'review', failure: { code: 'PAYMENT_MISMATCH' } });
    expect(held.body.events.at(-1)).toMatchObject({
      type: 'review',
      detail: 'The payment provider reported $1 for an order of $25.',
    });
    expect(await available(bp.id)).toBe(10);

    // COMPLETED with less paid than the price: the same.
    const other = await buy(me, await item({ price: 2500 }));
    const short = await confirmedEvent(other.body.code, paidWith('5.00'));
    expect((await postWebhook(short.raw, short.signature)).status).toBe(200);
    expect((await orderRow(other.body.order.id)).status).toBe('review');
    expect(await jobsOf(FULFIL_JOB, other.body.order.id)).toBe(0);

    // A top-up "paid" with less than it asked credits nothing.
    const topup = await create(me, { type: 'topup', topupAmount: 5000 });
    const shortTopup = await confirmedEvent(topup.body.code, paidWith('1.00'));
    expect((await postWebhook(shortTopup.raw, shortTopup.signature)).status).toBe(200);
    expect(await jobsOf(SEND_FUSD_JOB, topup.body.id)).toBe(0);
    expect((await chargeRow(topup.body.id)).status).toBe('REVIEW');
  });
});
