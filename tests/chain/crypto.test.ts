import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followCrypto } from '#domain/chargeProgress';
import {
  type CoinbaseSandbox,
  SANDBOX_API_KEY,
  SANDBOX_WEBHOOK_SECRET,
  startCoinbaseSandbox,
} from '../../sandbox/coinbase-commerce/index';
import { getFusdBalance, getNfts } from '../../server/chain/actions';
import { createMintService } from '../../server/chain/mint';
import { createSendFusdHandler } from '../../server/checkout/crypto/send-fusd';
import { FULFIL_JOB, SEND_FUSD_JOB } from '../../server/checkout/orders';
import { expireOrders } from '../../server/checkout/workflow/expire';
import { createFulfilment } from '../../server/checkout/workflow/fulfil';
import { coinbaseCharges, jobs, nftPurchases, orderEvents, orders, users } from '../../server/db/schema';
import { createJobWorker, type JobWorker } from '../../server/jobs';
import { createCoinbaseProvider } from '../../server/payments/coinbase-commerce';
import type { CryptoProvider } from '../../server/payments/crypto-provider';
import { insertBlueprint } from '../../server/seed/factory';
import { type Json, register, type TestApi, useTestApp } from '../api/support/harness';
import { creator } from '../api/support/sales';
import { chainClient, freshBlueprintId, newCollector } from './support';

/**
 * Crypto charges on the real emulator: a purchase paid on the hosted page is minted to the
 * buyer's wallet (purchase type coinbase, charge MINTED); a top-up sends its FUSD from the
 * treasury; a payment that arrives after its edition sold out goes back as FUSD, and the charge the
 * purchase-complete page reads says so with the order's timeline; a wallet without an FUSD vault
 * cannot receive FUSD: the transfer is refused and the charge ends SEND_FUSD_FAILED.
 */

const client = chainClient();
const quiet = { info() {}, error() {} };

describe('crypto charges on the emulator', () => {
  let sandbox: CoinbaseSandbox;
  let provider: CryptoProvider;
  let worker: JobWorker;
  const t: TestApi = useTestApp(
    'pglite',
    {},
    {
      chainClient: client,
      cryptoProvider: {
        createCharge: (r) => provider.createCharge(r),
        getCharge: (id) => provider.getCharge(id),
        cancelCharge: (id) => provider.cancelCharge(id),
        verifyWebhook: (raw, sig) => provider.verifyWebhook(raw, sig),
      },
    },
  );

  beforeAll(async () => {
    sandbox = await startCoinbaseSandbox({ port: 0, confirmAfterMs: 50 });
    provider = createCoinbaseProvider({
      apiKey: SANDBOX_API_KEY,
      apiUrl: sandbox.url,
      webhookSecret: SANDBOX_WEBHOOK_SECRET,
    });
    await t.database.db.execute(
      sql.raw(`alter table blueprints alter column flow_blueprint_id restart with ${freshBlueprintId()}`),
    );
    const db = t.database.db;
    worker = createJobWorker({
      db,
      handlers: {
        [FULFIL_JOB]: createFulfilment({
          db,
          provider: null,
          mint: createMintService({ db, client }),
          log: quiet,
        }),
        [SEND_FUSD_JOB]: createSendFusdHandler({ db, client, log: quiet }),
      },
      pollMs: 50,
      backoffMs: () => 50,
      log: quiet,
    });
    worker.start();
  });
  afterAll(async () => {
    await worker?.stop();
    await sandbox?.close();
  });

  async function buyer(options: { vault?: boolean } = {}) {
    const account = await newCollector(client, { setup: options.vault !== false });
    const me = await register(t);
    await t.database.db.update(users).set({ walletAddress: account.address }).where(eq(users.id, me.id));
    return { ...me, walletAddress: account.address };
  }
  /** Pays on the hosted page; answers where the page sends the buyer. */
  async function pay(hostedUrl: string) {
    const res = await fetch(hostedUrl, {
      method: 'POST',
      body: new URLSearchParams({ coin: 'usdc', action: 'pay' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    return res.headers.get('location') ?? '';
  }
  /** The buyer's page reads the charge back from the provider (no webhooks in this file). */
  const sync = (who: { authToken: string }, id: string) =>
    t.request('PATCH', `/api/coinbase-charges/${id}`, { token: who.authToken, body: {} });
  /**
   * Reads the charge back, as the buyer's page does every tick, until the network has confirmed the
   * payment (the sandbox confirms 50 ms after paying): nothing is minted or sent before.
   */
  const syncConfirmed = (who: { authToken: string }, id: string) =>
    until(
      async () => (await sync(who, id)).body,
      (c: Json) => c.status !== 'NEW' && c.status !== 'PENDING',
    );
  async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 60_000): Promise<T> {
    for (const end = Date.now() + ms; ; ) {
      const v = await read();
      if (done(v)) return v;
      if (Date.now() > end) throw new Error(`still ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const charge = async (id: string) =>
    (await t.database.db.select().from(coinbaseCharges).where(eq(coinbaseCharges.id, id)))[0]!;
  const fusd = async (address: string) => Number(await getFusdBalance(client, address));

  it('a purchase paid on the hosted page is minted to the wallet', async () => {
    const me = await buyer();
    const shop = await creator(t);
    const bp = await insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Edition ${randomBytes(3).toString('hex')}`,
      price: 1800,
      quantity: 10,
    });
    const res = await t.request('POST', '/api/coinbase-charges', {
      token: me.authToken,
      body: {
        type: 'directPurchase',
        blueprintId: bp.id,
        expectedPrice: 1800,
        idempotencyKey: `k-${randomBytes(6).toString('hex')}`,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await pay(res.body.hostedUrl);
    await syncConfirmed(me, res.body.id);
    const row = await until(
      () => charge(res.body.id),
      (c) => c.status === 'MINTED',
    );
    expect(row.orderId).toBe(res.body.order.id);
    const onChain = (await getNfts(client, me.walletAddress)).filter(
      (n) => n.blueprintId === String(bp.flowBlueprintId),
    );
    expect(onChain).toHaveLength(1);
    const [purchase] = await t.database.db
      .select()
      .from(nftPurchases)
      .where(eq(nftPurchases.orderId, res.body.order.id));
    expect(purchase).toMatchObject({ type: 'coinbase', amount: 1800 });
    const answer = await t.request('GET', `/api/coinbase-charges/${res.body.id}`, { token: me.authToken });
    expect(answer.body).toMatchObject({ status: 'MINTED', success: true, order: { status: 'minted' } });
    // Seen on the network (payment_seen, when a read came before the confirmation), then minted.
    expect(
      answer.body.order.events.map((e: Json) => e.type).filter((e: string) => e !== 'payment_seen'),
    ).toEqual(['created', 'authorized', 'minting', 'minted']);
  });

  it('a top-up sends its FUSD from the treasury, once', async () => {
    const me = await buyer();
    const before = await fusd(me.walletAddress);
    const res = await t.request('POST', '/api/coinbase-charges', {
      token: me.authToken,
      body: { type: 'topup', topupAmount: 4250, idempotencyKey: `k-${randomBytes(6).toString('hex')}` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await pay(res.body.hostedUrl);
    await syncConfirmed(me, res.body.id);
    const row = await until(
      () => charge(res.body.id),
      (c) => c.status === 'SEND_FUSD_SUCCEEDED',
    );
    expect(row.fusdTransactionId).toMatch(/^[0-9a-f]{64}$/);
    expect(await fusd(me.walletAddress)).toBeCloseTo(before + 42.5, 8);
    // Another read of the charge sends nothing more.
    await sync(me, res.body.id);
    await new Promise((r) => setTimeout(r, 500));
    expect(await fusd(me.walletAddress)).toBeCloseTo(before + 42.5, 8);

    // A worker that stopped after the transfer was sealed, before the charge said so: the job runs
    // again, finds the transfer kept on the charge, and sends nothing more.
    await t.database.db
      .update(coinbaseCharges)
      .set({ status: 'COMPLETED' })
      .where(eq(coinbaseCharges.id, res.body.id));
    const [job] = await t.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, SEND_FUSD_JOB), eq(jobs.key, res.body.id)));
    await createSendFusdHandler({ db: t.database.db, client, log: quiet }).run(job!);
    expect(await charge(res.body.id)).toMatchObject({
      status: 'SEND_FUSD_SUCCEEDED',
      fusdTransactionId: row.fusdTransactionId,
    });
    expect(await fusd(me.walletAddress)).toBeCloseTo(before + 42.5, 8);
  });

  it('a payment that arrives after the edition sold out goes back as FUSD; the page’s charge tells it with the timeline', async () => {
    const me = await buyer();
    const other = await buyer();
    const before = await fusd(me.walletAddress);
    const shop = await creator(t);
    const bp = await insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Edition ${randomBytes(3).toString('hex')}`,
      price: 900,
      quantity: 1,
    });
    const directPurchase = (who: { authToken: string }) =>
      t.request('POST', '/api/coinbase-charges', {
        token: who.authToken,
        body: {
          type: 'directPurchase',
          blueprintId: bp.id,
          expectedPrice: 900,
          idempotencyKey: `k-${randomBytes(6).toString('hex')}`,
        },
      });
    const res = await directPurchase(me);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The order's time runs out before the buyer pays (our clock; the provider's charge is still open)…
    await expireOrders(t.database.db, new Date(Date.now() + 66 * 60_000));
    expect(
      (await t.database.db.select().from(orders).where(eq(orders.id, res.body.order.id)))[0]!.status,
    ).toBe('expired');
    // …and someone else takes the last edition: it is sold out.
    expect((await directPurchase(other)).status).toBe(201);
    expect(await directPurchase(me)).toMatchObject({ status: 409, body: { code: 'SOLD_OUT' } });
    // The hosted page sends the buyer to the purchase-complete page of this charge, which syncs it…
    const location = await pay(res.body.hostedUrl);
    expect(location).toContain(`/ordercomplete/${bp.id}?e=blueprint&t=`);
    expect(new URL(location).searchParams.get('type')).toBe('coinbase');
    expect(new URL(location).searchParams.get('charge')).toBe(res.body.id);
    const synced = await sync(me, res.body.id);
    expect(['refunding', 'refunded']).toContain(followCrypto(synced.body).stage);
    // …and syncs it every tick until the payment, once the network confirmed it, went back.
    const read = async () => (await sync(me, res.body.id)).body;
    const page = await until(read, (c) => followCrypto(c).stage !== 'refunding');
    expect(followCrypto(page)).toMatchObject({
      stage: 'refunded',
      refund: { cents: 900, to: 'wallet' },
      order: { status: 'refunded' },
    });
    expect(page).toMatchObject({ status: 'SEND_FUSD_SUCCEEDED', success: true, paid: 900 });
    expect(page.fusdTransactionId).toMatch(/^[0-9a-f]{64}$/);
    // (The expiry is dated by the clock the test moved forward, so the events are compared as a set.)
    expect(page.order.events.map((e: Json) => [e.type, e.detail])).toEqual(
      expect.arrayContaining([
        ['paid_late', 'Your payment arrived after the order ended: it is refunded as FUSD to your wallet.'],
        ['fusd_sent', '$9 was sent back as FUSD to your wallet.'],
      ]),
    );
    expect(page.order.events).toHaveLength(4);
    expect(await fusd(me.walletAddress)).toBeCloseTo(before + 9, 8);
    const events = await t.database.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, page.order.id));
    expect(events.map((e) => e.type).sort()).toEqual(['created', 'expired', 'fusd_sent', 'paid_late'].sort());
  });

  it('a wallet without an FUSD vault: the treasury’s transfer is refused and the charge ends SEND_FUSD_FAILED', async () => {
    const me = await buyer({ vault: false });
    // A top-up paid in full: its FUSD cannot be sent.
    const topup = await t.request('POST', '/api/coinbase-charges', {
      token: me.authToken,
      body: { type: 'topup', topupAmount: 1500, idempotencyKey: `k-${randomBytes(6).toString('hex')}` },
    });
    expect(topup.status, JSON.stringify(topup.body)).toBe(201);
    await pay(topup.body.hostedUrl);
    await syncConfirmed(me, topup.body.id);
    const failed = await until(
      () => charge(topup.body.id),
      (c) => c.status === 'SEND_FUSD_FAILED',
    );
    // The refused transfer's id is kept: a resend by an operator is the same transfer.
    expect(failed.fusdTransactionId).toMatch(/^[0-9a-f]{64}$/);
    expect(
      (await t.request('GET', `/api/coinbase-charges/${topup.body.id}`, { token: me.authToken })).body,
    ).toMatchObject({ status: 'SEND_FUSD_FAILED', success: false, unresolved: false });
    // Another read does not send again, and nothing is credited anywhere.
    await sync(me, topup.body.id);
    expect((await charge(topup.body.id)).status).toBe('SEND_FUSD_FAILED');

    // A purchase paid after its order ended: its refund is refused the same way, and the page says so.
    const shop = await creator(t);
    const bp = await insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Edition ${randomBytes(3).toString('hex')}`,
      price: 700,
      quantity: 5,
    });
    const res = await t.request('POST', '/api/coinbase-charges', {
      token: me.authToken,
      body: {
        type: 'directPurchase',
        blueprintId: bp.id,
        expectedPrice: 700,
        idempotencyKey: `k-${randomBytes(6).toString('hex')}`,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expireOrders(t.database.db, new Date(Date.now() + 66 * 60_000));
    await pay(res.body.hostedUrl);
    await syncConfirmed(me, res.body.id);
    await until(
      () => charge(res.body.id),
      (c) => c.status === 'SEND_FUSD_FAILED',
    );
    const page = (await t.request('GET', `/api/coinbase-charges/${res.body.id}`, { token: me.authToken }))
      .body;
    expect(followCrypto(page)).toMatchObject({
      stage: 'refundFailed',
      refund: { cents: 700, to: 'wallet' },
      order: { status: 'expired' },
    });
    expect(page.order.events.map((e: Json) => e.type).sort()).toEqual(['created', 'expired', 'paid_late']);
    // Nothing reached the wallet (no vault: its balance reads 0).
    expect(await fusd(me.walletAddress)).toBe(0);
  });
});
