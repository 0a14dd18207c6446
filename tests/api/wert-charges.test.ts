import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  publicKeyOf,
  SANDBOX_API_KEY,
  SANDBOX_PARTNER_ID,
  SANDBOX_PRIVATE_KEY,
  signatureValid,
  startWertSandbox,
  type WertSandbox,
} from '../../sandbox/wert/index';
import { FULFIL_JOB } from '../../server/checkout/orders';
import { readInputData, WERT_REFUND_JOB } from '../../server/checkout/wert/wert';
import { expireOrders } from '../../server/checkout/workflow/expire';
import {
  blueprints,
  jobs,
  orderEvents,
  orders,
  users,
  webhookEvents,
  wertCharges,
} from '../../server/db/schema';
import type { OnrampProvider } from '../../server/payments/onramp-provider';
import { createWertProvider } from '../../server/payments/wert';
import { insertBlueprint } from '../../server/seed/factory';
import { databases, flowAddress, type Json, register, type TestApi, useTestApp } from './support/harness';
import { creator } from './support/sales';
import { openWidget, widgetUrl } from './support/wert';

/**
 * On-ramp charges against the embedded Wert-shaped sandbox over real HTTP, its webhooks delivered to
 * the app served on a port: a charge reserves a unit and answers signed widget options that verify
 * with the partner's public key; paying in the widget (the sandbox page, driven as a person would)
 * authorizes the order once the provider confirms it; cancel only while nothing was paid
 * (wert_cancel_fail), another buyer's charge is 404 as an unknown one; webhooks are hints — unknown,
 * forged, unconfirmed or swapped ones change nothing, and a replayed one has one effect; what they
 * cost the provider is coalesced and throttled; a payment that arrives after the edition went to
 * someone else is refunded. Minting runs on the chain in
 * tests/chain/wert.test.ts.
 */

describe.each(databases)('on-ramp charges on %s', (database) => {
  let sandbox: WertSandbox;
  let provider: OnrampProvider;
  let server: Server;
  /** Every search the app sent the provider's Data API, in order. */
  const lookups: string[] = [];
  const t: TestApi = useTestApp(
    database,
    {},
    {
      onrampProvider: {
        get partnerId() {
          return provider.partnerId;
        },
        get origin() {
          return provider.origin;
        },
        sign: (fields) => provider.sign(fields),
        findOrders: (search) => {
          lookups.push(search);
          return provider.findOrders(search);
        },
      },
    },
  );
  const closing: { close(): void }[] = [];

  beforeAll(async () => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    sandbox = await startWertSandbox({
      port: 0,
      webhookUrl: `http://127.0.0.1:${port}/api/webhooks/wert`,
      retrySchedule: [],
      transferAfterMs: 30,
      completeAfterMs: 30,
    });
    provider = createWertProvider({
      partnerId: SANDBOX_PARTNER_ID,
      origin: sandbox.url,
      privateKey: SANDBOX_PRIVATE_KEY,
      apiUrl: sandbox.url,
      apiKey: SANDBOX_API_KEY,
    });
  });
  afterAll(async () => {
    for (const c of closing) c.close();
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
    const bp = await insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Item ${randomBytes(3).toString('hex')}`,
      price: values.price ?? 2500,
      quantity: values.quantity ?? 10,
      previewImageUrl: '/media/seed/preview.png',
    });
    return { ...bp, shop: shop.storefront };
  }
  const key = () => `key-${randomBytes(8).toString('hex')}`;
  const buy = (who: { authToken: string }, bp: { id: string; price: number }, extra = {}) =>
    t.request('POST', '/api/wert-charges', {
      token: who.authToken,
      body: { blueprintId: bp.id, expectedPrice: bp.price, idempotencyKey: key(), ...extra },
    });
  const patch = (who: { authToken: string }, id: string, body: Record<string, unknown>) =>
    t.request('PATCH', `/api/wert-charges/${id}`, { token: who.authToken, body });
  const hook = (body: unknown, from?: string) =>
    t.request('POST', '/api/webhooks/wert', { body, headers: from ? { 'x-test-address': from } : {} });
  /** An order id of the provider's shape that it never issued. */
  const unknownOrderId = () => `01HV${randomBytes(11).toString('hex').toUpperCase()}`;
  /** What the browser passes to `new WertWidget(…)` for a charge. */
  const widgetOptions = (charge: Json) => ({
    ...charge.signedData,
    partner_id: charge.partnerId,
    click_id: charge.clickId,
    origin: charge.origin,
    extra: { item_info: charge.itemInfo },
  });
  /** Presses Pay (or Fail) in the widget over HTTP, as the page's script does. */
  async function press(charge: Json, action: 'pay' | 'fail' | 'cancel', options = widgetOptions(charge)) {
    const res = await fetch(`${charge.origin}/${charge.partnerId}/widget/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action, query: new URL(widgetUrl(options)).search }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { order_id: string }).order_id;
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
    (await t.database.db.select().from(wertCharges).where(eq(wertCharges.id, id)))[0]!;
  const eventsOf = async (orderId: string) =>
    (await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)))
      .map((e) => e.type)
      .sort();
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
  /** Runs with the sandbox's orders waiting for the test (and, optionally, its webhooks muted). */
  async function manually<T>(run: () => Promise<T>, options: { webhooks?: boolean } = {}): Promise<T> {
    sandbox.setAutoComplete(false);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/wert`;
    if (options.webhooks === false) sandbox.setWebhookUrl(undefined);
    try {
      return await run();
    } finally {
      sandbox.setAutoComplete(true);
      sandbox.setWebhookUrl(url);
    }
  }
  /** The order_complete webhook Wert would send for an order of the sandbox. */
  const completeHook = (charge: Json, orderId: string, type = 'order_complete') => ({
    type,
    click_id: charge.id,
    order: {
      id: orderId,
      commodity: 'FUSD',
      commodity_amount: String(charge.signedData.commodity_amount),
      currency: 'USD',
      currency_amount: (charge.amount / 100).toFixed(2),
      address: charge.walletAddress,
      transaction_id: sandbox.orderOf(charge.id)?.txId ?? null,
      sc_address: charge.signedData.sc_address,
      sc_input_data: charge.signedData.sc_input_data,
    },
  });

  it('reserves a unit and answers widget options signed with the partner key', async () => {
    const me = await buyer();
    const bp = await item({ price: 1250 });
    const res = await buy(me, bp);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const charge = res.body;
    expect(charge).toMatchObject({
      clickId: charge.id,
      status: 'created',
      partnerId: SANDBOX_PARTNER_ID,
      origin: sandbox.url,
      amount: 1250,
      walletAddress: me.walletAddress,
      providerOrderId: null,
      txId: null,
      unresolved: true,
      success: false,
      cancellable: true,
      itemInfo: {
        name: bp.title,
        image_url: 'http://vitrine.test/media/seed/preview.png',
        author: bp.shop.name,
        seller: 'Vitrine',
      },
      order: { method: 'wert', status: 'created', amount: 1250, item: { kind: 'blueprint', id: bp.id } },
    });
    // The six fields as signed: the buyer's wallet, 12.50 FUSD to the treasury, the purchase.
    const signed = charge.signedData;
    expect(signed).toEqual({
      address: me.walletAddress,
      commodity: 'FUSD',
      commodity_amount: 12.5,
      network: 'flow-emulator',
      sc_address: '0xf8d6e0586b0a20c7',
      sc_input_data: expect.stringMatching(/^0x[0-9a-f]+$/),
      signature: expect.stringMatching(/^[0-9A-F]{128}$/),
    });
    expect(readInputData(signed.sc_input_data)).toEqual({
      orderId: charge.order.id,
      blueprintId: bp.id,
      recipient: me.walletAddress,
    });
    const fields = Object.fromEntries(
      ['address', 'commodity', 'commodity_amount', 'network', 'sc_address', 'sc_input_data'].map((k) => [
        k,
        String(signed[k]),
      ]),
    );
    expect(signatureValid(fields, signed.signature, publicKeyOf(SANDBOX_PRIVATE_KEY))).toBe(true);
    expect(
      signatureValid(
        { ...fields, commodity_amount: '1.25' },
        signed.signature,
        publicKeyOf(SANDBOX_PRIVATE_KEY),
      ),
    ).toBe(false);
    expect(await available(bp.id)).toBe(9);
    // Another purchase waits for this one (CHARGE_PENDING); a retry of this one answers it (the
    // rails' contract, rails.contract.test.ts).
    expect(await buy(me, bp)).toMatchObject({
      status: 409,
      body: { code: 'CHARGE_PENDING', chargeId: charge.id },
    });
    expect(await available(bp.id)).toBe(9);
    const config = await t.request('GET', '/api/config/payments');
    expect(config.body).toMatchObject({ onramp: true });
  });

  it('paying in the widget authorizes the order once the provider confirms it; then it can no longer be canceled', async () => {
    const me = await buyer();
    const bp = await item();
    const charge = (await buy(me, bp)).body;
    // The widget, opened as the browser opens it (the official initializer's URL), and Pay pressed.
    const widget = await openWidget(widgetUrl(widgetOptions(charge)));
    closing.push(widget);
    expect(widget.status).toBe(200);
    expect(widget.document.body.textContent).toContain('$25.00 USD');
    await widget.waitFor((m) => m.type === 'loaded');
    widget.press('pay');
    await widget.waitFor((m) => m.type === 'payment-status' && m.data?.status === 'success');
    const order = await until(
      () => orderRow(charge.order.id),
      (o) => o.status !== 'created',
    );
    expect(order.status).toBe('authorized');
    expect(await jobsOf(FULFIL_JOB, order.id)).toBe(1);
    const provided = sandbox.orderOf(charge.id)!;
    expect(await chargeRow(charge.id)).toMatchObject({
      status: 'order_complete',
      providerOrderId: provided.id,
      txId: provided.txId,
    });
    // Webhooks are not ordered: payment_started may arrive after order_complete, and is then news to nobody.
    const events = await eventsOf(order.id);
    expect(events).toEqual(expect.arrayContaining(['authorized', 'created']));
    expect(events.filter((e) => !['authorized', 'created', 'payment_started'].includes(e))).toEqual([]);
    const got = await t.request('GET', `/api/wert-charges/${charge.id}`, { token: me.authToken });
    expect(got.body).toMatchObject({
      status: 'order_complete',
      success: true,
      unresolved: false,
      cancellable: false,
    });
    const cancel = await patch(me, charge.id, { status: 'canceled' });
    expect(cancel).toMatchObject({ status: 400, body: { code: 'wert_cancel_fail' } });
    expect(cancel.body.message).toMatch(/can no longer be canceled/);
    // The buyer can buy again: nothing of theirs is open.
    expect((await buy(me, bp)).status).toBe(201);
  });

  it('a declined card in the widget fails the order and releases its unit', async () => {
    const me = await buyer();
    const bp = await item();
    const charge = (await buy(me, bp)).body;
    await press(charge, 'fail');
    const order = await until(
      () => orderRow(charge.order.id),
      (o) => o.status !== 'created',
    );
    expect(order).toMatchObject({ status: 'declined', reserved: false, failureCode: 'PURCHASE_FAILED' });
    expect(await available(bp.id)).toBe(10);
    expect((await chargeRow(charge.id)).status).toBe('order_failed');
    const canceled = await patch(me, charge.id, { status: 'canceled' });
    expect(canceled.status).toBe(200);
    expect((await buy(me, bp)).status).toBe(201);
  });

  it('cancels while nothing was paid (also after the browser reported a start); refuses once the provider has a payment', async () => {
    const me = await buyer();
    const bp = await item();
    const first = (await buy(me, bp)).body;
    const started = await patch(me, first.id, { status: 'paymentStarted' });
    expect(started.body).toMatchObject({
      status: 'paymentStarted',
      cancellable: true,
      order: { status: 'created' },
    });
    const canceled = await patch(me, first.id, { status: 'canceled' });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(canceled.body).toMatchObject({
      status: 'canceled',
      unresolved: false,
      order: { status: 'canceled' },
    });
    expect(await available(bp.id)).toBe(10);
    expect((await patch(me, first.id, { status: 'canceled' })).status).toBe(200);
    // Only forward: the report of a start changes nothing now.
    expect((await patch(me, first.id, { status: 'paymentStarted' })).body.status).toBe('canceled');

    await manually(async () => {
      const second = (await buy(me, bp)).body;
      await press(second, 'pay');
      const refused = await patch(me, second.id, { status: 'canceled' });
      expect(refused).toMatchObject({ status: 400, body: { code: 'wert_cancel_fail' } });
      // What the provider said on the way is applied: the payment started, the unit held longer.
      const row = await chargeRow(second.id);
      expect(row).toMatchObject({
        status: 'payment_started',
        providerOrderId: sandbox.orderOf(second.id)!.id,
      });
      const order = await orderRow(second.order.id);
      expect(order.status).toBe('created');
      expect(order.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    });
  });

  it('a buyer sees only their own charges: another buyer’s is 404 as an unknown one, lists filter by status and item', async () => {
    const me = await buyer();
    const other = await buyer();
    const bp = await item();
    const bp2 = await item();
    const mine = (await buy(me, bp)).body;
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', {}],
      ['PATCH', { status: 'canceled' }],
    ] as const) {
      // Nothing tells another buyer's charge from one that does not exist.
      const res = await t.request(method, `/api/wert-charges/${mine.id}`, { token: other.authToken, body });
      const unknown = await t.request(method, `/api/wert-charges/${crypto.randomUUID()}`, {
        token: other.authToken,
        body,
      });
      expect({ method, body, status: res.status, answer: res.body }).toEqual({
        method,
        body,
        status: 404,
        answer: unknown.body,
      });
      expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found' } });
    }
    expect(await chargeRow(mine.id)).toMatchObject({ status: 'created' });
    expect(
      (await t.request('GET', `/api/wert-charges?userId=${me.id}`, { token: other.authToken })).status,
    ).toBe(403);
    expect(
      (await t.request('GET', `/api/wert-charges/${crypto.randomUUID()}`, { token: me.authToken })).status,
    ).toBe(404);
    expect((await t.request('GET', '/api/wert-charges/nope', { token: me.authToken })).status).toBe(404);
    expect((await t.request('GET', `/api/wert-charges/${mine.id}`)).status).toBe(401);
    const list = (query: string) =>
      t.request('GET', `/api/wert-charges?userId=${me.id}${query}`, { token: me.authToken });
    expect((await list('')).body.results.map((c: Json) => c.id)).toEqual([mine.id]);
    expect(
      (await list('&statuses=created,paymentStarted,transferStarted')).body.results.map((c: Json) => c.id),
    ).toEqual([mine.id]);
    expect(
      (await list('&statuses=payment_started,transfer_started,tx_smart_contract_failed,failover_cancelled'))
        .body.results,
    ).toEqual([]);
    expect((await list('&statuses=order_complete')).body.results).toEqual([]);
    expect((await list(`&blueprintIds=${bp.id},${bp2.id}`)).body.results.map((c: Json) => c.id)).toEqual([
      mine.id,
    ]);
    expect((await list(`&blueprintIds=${bp2.id}`)).body.results).toEqual([]);
    expect((await list('&statuses=done')).body).toMatchObject({
      code: 'INVALID_VALUE',
      field: 'statuses',
    });
    expect((await list('&blueprintIds=nope')).body).toMatchObject({ code: 'INVALID_VALUE' });
  });

  it('a webhook is a hint: unknown, ignored, invalid or unconfirmed ones change nothing', async () => {
    const me = await buyer();
    const bp = await item();
    const charge = (await buy(me, bp)).body;
    await manually(
      async () => {
        const orderId = await press(charge, 'pay');
        // The provider says pending: an order_complete for it is not confirmed.
        const forged = await hook(completeHook(charge, orderId));
        expect(forged).toMatchObject({ status: 200, body: { received: true, confirmed: false } });
        expect(await chargeRow(charge.id)).toMatchObject({ status: 'created', providerOrderId: null });
        expect((await orderRow(charge.order.id)).status).toBe('created');
        // An order id the provider does not know, a charge we do not know, other events.
        expect((await hook(completeHook(charge, '01HVNOTANORDER000000000000'))).body).toMatchObject({
          confirmed: false,
        });
        expect(
          (await hook({ ...completeHook(charge, orderId), click_id: crypto.randomUUID() })).body,
        ).toMatchObject({
          ignored: 'no charge of ours',
        });
        expect((await hook({ type: 'login', click_id: charge.id })).body).toMatchObject({
          ignored: expect.any(String),
        });
        expect((await hook({ click_id: charge.id })).status).toBe(400);
        expect(
          (
            await t.request('POST', '/api/webhooks/wert', {
              raw: 'not json',
              headers: { 'content-type': 'application/json' },
            })
          ).status,
        ).toBe(400);
        expect(await chargeRow(charge.id)).toMatchObject({ status: 'created', providerOrderId: null });
        expect(await eventsOf(charge.order.id)).toEqual(['created']);
        // A webhook of the right kind is confirmed and applied: payment_started.
        expect((await hook(completeHook(charge, orderId, 'payment_started'))).body).toEqual({
          received: true,
        });
        expect((await chargeRow(charge.id)).status).toBe('payment_started');
      },
      { webhooks: false },
    );
  });

  it('applies a confirmed webhook once however often it comes: 50 deliveries at once ask the provider once', async () => {
    const me = await buyer();
    const bp = await item();
    const charge = (await buy(me, bp)).body;
    await manually(
      async () => {
        const orderId = await press(charge, 'pay');
        expect(sandbox.complete(orderId)).toBe(true);
        // The clock stands still: the deliveries are all within the 5 s an answer is shared for.
        t.clock.freeze();
        lookups.length = 0;
        const body = completeHook(charge, orderId);
        const answers = await Promise.all(Array.from({ length: 50 }, () => hook(body)));
        expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
        expect(answers.filter((a) => a.body.duplicate !== true)).toHaveLength(1);
        expect(lookups).toEqual([orderId]);
        const stored = await t.database.db
          .select()
          .from(webhookEvents)
          .where(eq(webhookEvents.id, `wert:${orderId}:order_complete`));
        expect(stored).toHaveLength(1);
        expect((await orderRow(charge.order.id)).status).toBe('authorized');
        expect(await jobsOf(FULFIL_JOB, charge.order.id)).toBe(1);
        expect(await eventsOf(charge.order.id)).toEqual(['authorized', 'created']);
        // The same order read again by the buyer's sync changes nothing either.
        const synced = await patch(me, charge.id, {});
        expect(synced.body).toMatchObject({ status: 'order_complete', success: true });
        expect(await jobsOf(FULFIL_JOB, charge.order.id)).toBe(1);
      },
      { webhooks: false },
    );
  });

  it('an unconfirmed event repeated at once asks once and is answered 429, never refused for good: its retry is applied', async () => {
    const me = await buyer();
    const bp = await item();
    const charge = (await buy(me, bp)).body;
    await manually(
      async () => {
        const orderId = await press(charge, 'pay');
        t.clock.freeze();
        lookups.length = 0;
        // 50 copies of an order_complete the provider does not confirm (its order is pending).
        const body = completeHook(charge, orderId);
        const answers = await Promise.all(Array.from({ length: 50 }, () => hook(body)));
        expect(lookups).toEqual([orderId]);
        expect(answers.filter((a) => a.status === 200).map((a) => a.body)).toEqual([
          { received: true, confirmed: false },
        ]);
        const repeats = answers.filter((a) => a.status !== 200);
        expect(repeats).toHaveLength(49);
        for (const r of repeats) {
          expect(r).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
          expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
          expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(5);
        }
        // The order completes now; a copy within the 5 s is still only asked to come again…
        expect(sandbox.complete(orderId)).toBe(true);
        expect((await hook(body)).status).toBe(429);
        expect(lookups).toHaveLength(1);
        expect((await orderRow(charge.order.id)).status).toBe('created');
        // …and the retry after them asks afresh and is applied.
        t.clock.advance(5000);
        expect(await hook(body)).toMatchObject({ status: 200, body: { received: true } });
        expect(lookups).toEqual([orderId, orderId]);
        expect((await orderRow(charge.order.id)).status).toBe('authorized');
        expect(await jobsOf(FULFIL_JOB, charge.order.id)).toBe(1);
      },
      { webhooks: false },
    );
  });

  it('throttles the provider lookups: 30 per charge in an hour, then 429 with Retry-After and the provider is not asked', async () => {
    const me = await buyer();
    const bp = await item();
    const charge = (await buy(me, bp)).body;
    t.clock.freeze();
    lookups.length = 0;
    // Each names an order of its own, so none is a repeat of another: each asks the provider.
    for (let i = 0; i < 30; i++) {
      const res = await hook(completeHook(charge, unknownOrderId()));
      expect([i, res.status, res.body]).toEqual([i, 200, { received: true, confirmed: false }]);
    }
    expect(lookups).toHaveLength(30);
    for (const from of [t.address, '203.0.113.7']) {
      const refused = await hook(completeHook(charge, unknownOrderId()), from);
      expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
      expect(Number(refused.headers.get('retry-after'))).toBe(3600);
    }
    expect(lookups).toHaveLength(30);
    expect(await chargeRow(charge.id)).toMatchObject({ status: 'created', providerOrderId: null });
    // An hour on, the charge's window has room again.
    t.clock.advance(60 * 60_000);
    expect((await hook(completeHook(charge, unknownOrderId()))).status).toBe(200);
    expect(lookups).toHaveLength(31);
  });

  it('throttles the provider lookups per client address: 120 a minute across charges; unknown charges ask nothing', async () => {
    const charges: Json[] = [];
    for (let i = 0; i < 5; i++) charges.push((await buy(await buyer(), await item())).body);
    t.clock.freeze();
    lookups.length = 0;
    // 30 from each of four charges (each one's own limit), in tens at once.
    for (const charge of charges.slice(0, 4)) {
      for (let batch = 0; batch < 3; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => hook(completeHook(charge, unknownOrderId()))),
        );
        expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      }
    }
    expect(lookups).toHaveLength(120);
    const last = charges[4];
    const refused = await hook(completeHook(last, unknownOrderId()));
    expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(lookups).toHaveLength(120);
    // Deliveries about no charge of ours cost no lookup (and no room in the window): still answered.
    for (let i = 0; i < 20; i++) {
      const res = await hook({ ...completeHook(last, unknownOrderId()), click_id: crypto.randomUUID() });
      expect(res).toMatchObject({ status: 200, body: { ignored: 'no charge of ours' } });
    }
    expect(lookups).toHaveLength(120);
    // Another address is not held back by this one; this one is again a minute on.
    expect((await hook(completeHook(last, unknownOrderId()), '203.0.113.8')).status).toBe(200);
    t.clock.advance(60_000);
    expect((await hook(completeHook(last, unknownOrderId()))).status).toBe(200);
    expect(lookups).toHaveLength(122);
  });

  it('another purchase’s signed options opened with this charge’s click_id do not pay for it', async () => {
    const me = await buyer();
    const thief = await buyer();
    const dear = await item({ price: 50_000 });
    const cheap = await item({ price: 100 });
    const target = (await buy(me, dear)).body;
    const decoy = (await buy(thief, cheap)).body;
    // The sandbox's own delivery is muted: it would ask about the very claim this test posts, and a
    // repeat of an unconfirmed claim within 5 s is answered 429 (a race with this test's delivery).
    await manually(
      async () => {
        // The cheap purchase's signature is valid, so the provider takes the order with the click_id given.
        const orderId = await press(target, 'pay', { ...widgetOptions(decoy), click_id: target.id });
        expect(sandbox.complete(orderId)).toBe(true);
        const answer = await hook(completeHook({ ...target, signedData: decoy.signedData }, orderId));
        expect(answer).toMatchObject({ status: 200, body: { received: true, confirmed: false } });
        await patch(me, target.id, {});
        expect(await chargeRow(target.id)).toMatchObject({ status: 'created', providerOrderId: null });
        expect((await orderRow(target.order.id)).status).toBe('created');
      },
      { webhooks: false },
    );
  });

  it('a payment that arrives after the order expired and the edition sold out goes back as FUSD', async () => {
    const first = await buyer();
    const second = await buyer();
    const bp = await item({ quantity: 1 });
    const late = (await buy(first, bp)).body;
    expect(await available(bp.id)).toBe(0);
    await manually(async () => {
      const orderId = await press(late, 'pay');
      await until(
        () => chargeRow(late.id),
        (c) => c.status === 'payment_started',
      );
      // Held while paying, but not for ever: past its time the order expires and frees the unit…
      await expireOrders(t.database.db, new Date(Date.now() + 31 * 60_000));
      expect((await orderRow(late.order.id)).status).toBe('created');
      await expireOrders(t.database.db, new Date(Date.now() + 2 * 3600_000));
      expect(await orderRow(late.order.id)).toMatchObject({ status: 'expired', reserved: false });
      // …which someone else buys.
      const other = await buy(second, bp);
      expect(other.status).toBe(201);
      expect(await available(bp.id)).toBe(0);
      // The first buyer's card payment completes now: not served, refunded.
      expect(sandbox.complete(orderId)).toBe(true);
      await until(
        () => chargeRow(late.id),
        (c) => c.status === 'order_complete',
      );
      expect(await orderRow(late.order.id)).toMatchObject({ status: 'expired' });
      expect(await eventsOf(late.order.id)).toEqual(['created', 'expired', 'paid_late', 'payment_started']);
      expect(await jobsOf(WERT_REFUND_JOB, late.id)).toBe(1);
      expect(await jobsOf(FULFIL_JOB, late.order.id)).toBe(0);
      expect((await orderRow(other.body.order.id)).status).toBe('created');
      const answer = await t.request('GET', `/api/wert-charges/${late.id}`, { token: first.authToken });
      expect(answer.body).toMatchObject({ success: false, unresolved: false, cancellable: false });
    });
  });

  it('the browser’s reports move a charge forward only, and never past what the provider confirmed', async () => {
    const me = await buyer();
    const bp = await item();
    const charge = (await buy(me, bp)).body;
    // The widget named its transaction: reported; an older report changes nothing.
    expect((await patch(me, charge.id, { status: 'transferStarted' })).body).toMatchObject({
      status: 'transferStarted',
      unresolved: true,
      cancellable: true,
    });
    expect((await patch(me, charge.id, { status: 'paymentStarted' })).body.status).toBe('transferStarted');
    await manually(async () => {
      await press(charge, 'pay');
      // The provider's word replaces the browser's, and a report cannot move it back.
      expect((await patch(me, charge.id, {})).body).toMatchObject({
        status: 'payment_started',
        unresolved: true,
        cancellable: false,
      });
      expect((await patch(me, charge.id, { status: 'transferStarted' })).body.status).toBe('payment_started');
      expect(sandbox.transfer(sandbox.orderOf(charge.id)!.id)).toBe(true);
      expect((await patch(me, charge.id, {})).body.status).toBe('transfer_started');
    });
  });

  it('a contract call that fails (tx_smart_contract_failed) fails the order; the failover’s end goes on its timeline', async () => {
    const me = await buyer();
    const bp = await item();
    for (const [end, detail] of [
      ['failover_complete', 'The on-ramp sent the FUSD you paid for to your wallet instead.'],
      [
        'failover_cancelled',
        'The on-ramp did not send the FUSD to your wallet: it gives your card payment back.',
      ],
    ] as const) {
      const charge = (await buy(me, bp)).body;
      expect(await available(bp.id)).toBe(9);
      await manually(async () => {
        const orderId = await press(charge, 'pay');
        expect(sandbox.failover(orderId)).toBe(true);
        const failed = await until(
          () => chargeRow(charge.id),
          (c) => c.status === 'tx_smart_contract_failed',
        );
        expect(failed.status).toBe('tx_smart_contract_failed');
        expect(await orderRow(charge.order.id)).toMatchObject({
          status: 'declined',
          reserved: false,
          failureCode: 'PURCHASE_FAILED',
          failureMessage:
            'The purchase could not be completed on chain, so nothing was minted. The on-ramp gives back what you paid.',
        });
        expect(await available(bp.id)).toBe(10);
        // The failover ends: where the money went is told once, however often it is heard.
        expect(
          end === 'failover_complete' ? sandbox.failoverComplete(orderId) : sandbox.failoverCancel(orderId),
        ).toBe(true);
        await until(
          () => chargeRow(charge.id),
          (c) => c.status === end,
        );
        expect((await hook(completeHook(charge, orderId, end))).body).toMatchObject({ duplicate: true });
        expect((await hook(completeHook(charge, orderId, 'tx_smart_contract_failed'))).status).toBe(200);
        expect((await patch(me, charge.id, {})).body).toMatchObject({
          status: end,
          unresolved: false,
          success: false,
          order: { status: 'declined' },
        });
        const got = await t.request('GET', `/api/wert-charges/${charge.id}`, { token: me.authToken });
        const events = got.body.order.events as Json[];
        expect(events.filter((e) => e.type === end).map((e) => e.detail)).toEqual([detail]);
        expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['created', 'declined', end]));
        // Money went elsewhere: nothing to cancel, nothing to refund from the treasury.
        expect(await patch(me, charge.id, { status: 'canceled' })).toMatchObject({
          status: 400,
          body: { code: 'wert_cancel_fail' },
        });
        expect(await jobsOf(WERT_REFUND_JOB, charge.id)).toBe(0);
      });
    }
  });

  it('refuses bad input with its error codes and never a 500', async () => {
    const me = await buyer();
    const bp = await item();
    const free = await item({ price: 0 });
    const soldOut = await item({ quantity: 1 });
    await t.database.db.update(blueprints).set({ quantityAvailable: 0 }).where(eq(blueprints.id, soldOut.id));
    const cases: [Record<string, unknown>, number, string][] = [
      [{ expectedPrice: 2500, idempotencyKey: key() }, 400, 'INVALID_VALUE'],
      [
        { blueprintId: bp.id, blueprintPackId: bp.id, expectedPrice: 2500, idempotencyKey: key() },
        400,
        'INVALID_VALUE',
      ],
      [{ blueprintId: 'nope', expectedPrice: 2500, idempotencyKey: key() }, 400, 'INVALID_VALUE'],
      [{ blueprintId: bp.id, expectedPrice: 25.5, idempotencyKey: key() }, 400, 'INVALID_VALUE'],
      [{ blueprintId: bp.id, expectedPrice: '2500', idempotencyKey: key() }, 400, 'INVALID_VALUE'],
      [{ blueprintId: bp.id, expectedPrice: 2500, idempotencyKey: 'short' }, 400, 'INVALID_VALUE'],
      [{ blueprintId: bp.id, expectedPrice: 2500 }, 400, 'INVALID_VALUE'],
      [{ blueprintId: bp.id, expectedPrice: 2499, idempotencyKey: key() }, 409, 'PRICE_CHANGED'],
      [{ blueprintId: crypto.randomUUID(), expectedPrice: 2500, idempotencyKey: key() }, 404, 'not_found'],
      [
        { blueprintPackId: crypto.randomUUID(), expectedPrice: 2500, idempotencyKey: key() },
        404,
        'not_found',
      ],
      [{ blueprintId: free.id, expectedPrice: 0, idempotencyKey: key() }, 400, 'NOT_PURCHASABLE'],
      [{ blueprintId: soldOut.id, expectedPrice: 2500, idempotencyKey: key() }, 409, 'SOLD_OUT'],
    ];
    for (const [body, status, code] of cases) {
      const res = await t.request('POST', '/api/wert-charges', { token: me.authToken, body });
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
    }
    const raw = await t.request('POST', '/api/wert-charges', {
      token: me.authToken,
      raw: '{"blueprintId":',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
    const walletless = await buyer({ wallet: false });
    expect(await buy(walletless, bp)).toMatchObject({ status: 400, body: { code: 'WALLET_REQUIRED' } });
    expect((await t.request('POST', '/api/wert-charges', { body: {} })).status).toBe(401);
    const mine = (await buy(me, bp)).body;
    for (const body of [
      { status: 'order_complete' },
      { status: 'payment_started' },
      { status: 'tx_smart_contract_failed' },
      { status: 'MINTED' },
      { status: 42 },
    ])
      expect((await patch(me, mine.id, body)).body).toMatchObject({ code: 'INVALID_VALUE', field: 'status' });
    expect((await t.request('GET', '/api/wert-charges', { token: me.authToken })).body).toMatchObject({
      code: 'INVALID_VALUE',
      field: 'userId',
    });
    expect((await chargeRow(mine.id)).status).toBe('created');
  });

  it('when the provider cannot be asked: buying still works, a sync or cancel is 502 and a webhook is retried', async () => {
    const me = await buyer();
    const bp = await item();
    const real = provider;
    provider = createWertProvider({
      partnerId: SANDBOX_PARTNER_ID,
      origin: sandbox.url,
      privateKey: SANDBOX_PRIVATE_KEY,
      apiUrl: 'http://127.0.0.1:9',
      apiKey: SANDBOX_API_KEY,
      timeoutMs: 2000,
    });
    try {
      const charge = await buy(me, bp);
      expect(charge.status).toBe(201);
      expect(await patch(me, charge.body.id, {})).toMatchObject({
        status: 502,
        body: { code: 'ONRAMP_PROVIDER' },
      });
      expect(await patch(me, charge.body.id, { status: 'canceled' })).toMatchObject({
        status: 502,
        body: { code: 'ONRAMP_PROVIDER' },
      });
      // The browser's report is kept all the same.
      expect((await patch(me, charge.body.id, { status: 'paymentStarted' })).body.status).toBe(
        'paymentStarted',
      );
      expect((await hook(completeHook(charge.body, '01HVNOTANORDER000000000000'))).status).toBe(502);
      expect((await orderRow(charge.body.order.id)).status).toBe('created');
    } finally {
      provider = real;
    }
  });
});
