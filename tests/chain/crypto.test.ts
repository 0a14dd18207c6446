import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CoinbaseSandbox,
  SANDBOX_API_KEY,
  SANDBOX_WEBHOOK_SECRET,
  startCoinbaseSandbox,
} from '../../sandbox/coinbase-commerce/index';
import { getFusdBalance, getNfts } from '../../server/chain/actions';
import { createMintService } from '../../server/chain/mint';
import { createFulfilment } from '../../server/checkout/fulfilment';
import { expireOrders, FULFIL_JOB, SEND_FUSD_JOB } from '../../server/checkout/orders';
import { createSendFusdHandler } from '../../server/checkout/send-fusd';
import { coinbaseCharges, nftPurchases, orderEvents, orders, users } from '../../server/db/schema';
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
 * treasury; a payment that arrives after its order ended goes back as FUSD and the order says so.
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

  async function buyer() {
    const account = await newCollector(client);
    const me = await register(t);
    await t.database.db.update(users).set({ walletAddress: account.address }).where(eq(users.id, me.id));
    return { ...me, walletAddress: account.address };
  }
  async function pay(hostedUrl: string) {
    const res = await fetch(hostedUrl, {
      method: 'POST',
      body: new URLSearchParams({ coin: 'usdc', action: 'pay' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
  }
  /** The buyer's page reads the charge back from the provider (no webhooks in this file). */
  const sync = (who: { authToken: string }, id: string) =>
    t.request('PATCH', `/api/coinbase-charges/${id}`, { token: who.authToken, body: {} });
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
    await sync(me, res.body.id);
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
    expect(answer.body.order.events.map((e: Json) => e.type)).toEqual([
      'created',
      'authorized',
      'minting',
      'minted',
    ]);
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
    await sync(me, res.body.id);
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
  });

  it('a payment that arrives after the order ended goes back as FUSD, and the timeline says so', async () => {
    const me = await buyer();
    const before = await fusd(me.walletAddress);
    const shop = await creator(t);
    const bp = await insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Edition ${randomBytes(3).toString('hex')}`,
      price: 900,
      quantity: 10,
    });
    const res = await t.request('POST', '/api/coinbase-charges', {
      token: me.authToken,
      body: {
        type: 'directPurchase',
        blueprintId: bp.id,
        expectedPrice: 900,
        idempotencyKey: `k-${randomBytes(6).toString('hex')}`,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The order's time runs out before the buyer pays (our clock; the provider's charge is still open).
    await expireOrders(t.database.db, new Date(Date.now() + 66 * 60_000));
    expect(
      (await t.database.db.select().from(orders).where(eq(orders.id, res.body.order.id)))[0]!.status,
    ).toBe('expired');
    await pay(res.body.hostedUrl);
    await sync(me, res.body.id);
    await until(
      () => charge(res.body.id),
      (c) => c.status === 'SEND_FUSD_SUCCEEDED',
    );
    expect(await fusd(me.walletAddress)).toBeCloseTo(before + 9, 8);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, res.body.order.id));
    expect(order!.status).toBe('refunded');
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order!.id));
    expect(events.map((e) => e.type).sort()).toEqual(['created', 'expired', 'fusd_sent', 'paid_late'].sort());
  });
});
