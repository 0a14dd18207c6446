import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFusdBalance, getNfts, mintFusd } from '../../server/chain/actions';
import type { AccountKey } from '../../server/chain/config';
import { latestSealedHeight } from '../../server/chain/events';
import { runIndexerOnce } from '../../server/chain/indexer';
import { createMintService } from '../../server/chain/mint';
import { createRefundFusdHandler, fusdPaymentEvents, REFUND_FUSD_JOB } from '../../server/checkout/fusd/fusd';
import { FULFIL_JOB } from '../../server/checkout/orders';
import { expireOrders } from '../../server/checkout/workflow/expire';
import { createFulfilment } from '../../server/checkout/workflow/fulfil';
import { blueprints, fusdPayments, nftPurchases, orders, users } from '../../server/db/schema';
import { createJobWorker, type JobWorker } from '../../server/jobs';
import { insertBlueprint } from '../../server/seed/factory';
import { type Json, register, type TestApi, useTestApp } from '../api/support/harness';
import { creator } from '../api/support/sales';
import { chainClient, freshBlueprintId, newCollector } from './support';

/**
 * New editions paid with the FUSD balance on the real emulator: the buyer's wallet pays the order
 * exactly with transactions/pay_order.cdc, the server reads the sealed transaction (reported, or
 * found by the indexer) and mints; a payment of another amount, or one after the order ended, goes
 * back to the payer; a reported transaction applied 10 times has one effect.
 */

const client = chainClient();
const quiet = { info() {}, error() {} };

describe('balance (FUSD) orders on the emulator', () => {
  let worker: JobWorker;
  const t: TestApi = useTestApp('pglite', {}, { chainClient: client });

  beforeAll(async () => {
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
        [REFUND_FUSD_JOB]: createRefundFusdHandler({ db, client, log: quiet }),
      },
      pollMs: 50,
      backoffMs: () => 50,
      log: quiet,
    });
    worker.start();
  });
  afterAll(async () => {
    await worker?.stop();
  });

  async function buyer(fusd = '100.0') {
    const account = await newCollector(client);
    await mintFusd(client, account.address, fusd);
    const me = await register(t);
    await t.database.db.update(users).set({ walletAddress: account.address }).where(eq(users.id, me.id));
    return { ...me, account, walletAddress: account.address };
  }
  async function edition(price: number) {
    const shop = await creator(t);
    return insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Edition ${randomBytes(3).toString('hex')}`,
      price,
      quantity: 10,
    });
  }
  const reserve = (who: { authToken: string }, blueprintId: string, expectedPrice: number) =>
    t.request('POST', '/api/fusd-orders', {
      token: who.authToken,
      body: { blueprintId, expectedPrice, idempotencyKey: `k-${randomBytes(6).toString('hex')}` },
    });
  /** The buyer's wallet pays `amount` FUSD for `orderId`. */
  const pay = async (signer: AccountKey, orderId: string, amount: string) =>
    (
      await client.transact('transactions/pay_order.cdc', {
        signer,
        args: (arg, tt) => [arg(orderId, tt.String), arg(amount, tt.UFix64)],
      })
    ).id;
  const report = (who: { authToken: string }, orderId: string, transactionId: string) =>
    t.request('PATCH', `/api/fusd-orders/${orderId}`, { token: who.authToken, body: { transactionId } });
  async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 60_000): Promise<T> {
    for (const end = Date.now() + ms; ; ) {
      const v = await read();
      if (done(v)) return v;
      if (Date.now() > end) throw new Error(`still ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const order = async (id: string) =>
    (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const payments = (orderId: string) =>
    t.database.db.select().from(fusdPayments).where(eq(fusdPayments.orderId, orderId));
  const fusd = async (address: string) => Number(await getFusdBalance(client, address));

  it('reserves only when the wallet’s FUSD covers the price: 402 INSUFFICIENT_FUNDS, nothing held', async () => {
    const me = await buyer('23.49');
    const bp = await edition(2350);
    const refused = await reserve(me, bp.id, 2350);
    expect([refused.status, refused.body.code]).toEqual([402, 'INSUFFICIENT_FUNDS']);
    const [row] = await t.database.db.select().from(blueprints).where(eq(blueprints.id, bp.id));
    expect(row!.quantityAvailable).toBe(10);
    expect(await t.database.db.select().from(orders).where(eq(orders.buyerId, me.id))).toEqual([]);
    // Exactly the price is enough.
    await mintFusd(client, me.walletAddress, '0.01');
    expect((await reserve(me, bp.id, 2350)).status).toBe(201);
  });

  it('an order paid exactly from the balance is minted to the wallet, once however often it is reported', async () => {
    const me = await buyer();
    const bp = await edition(2350);
    const res = await reserve(me, bp.id, 2350);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ amount: 2350, fusdAmount: '23.50000000', payments: [] });
    const txId = await pay(me.account, res.body.id, res.body.fusdAmount);
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await report(me, res.body.id, txId));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    await until(
      () => order(res.body.id),
      (o) => o.status === 'minted',
    );
    expect(await fusd(me.walletAddress)).toBeCloseTo(100 - 23.5, 6);
    expect(await payments(res.body.id)).toMatchObject([{ accepted: true, status: 'MINTED', amount: 2350 }]);
    const onChain = (await getNfts(client, me.walletAddress)).filter(
      (n) => n.blueprintId === String(bp.flowBlueprintId),
    );
    expect(onChain).toHaveLength(1);
    const [purchase] = await t.database.db
      .select()
      .from(nftPurchases)
      .where(eq(nftPurchases.orderId, res.body.id));
    expect(purchase).toMatchObject({ type: 'fusd', amount: 2350 });
    const read = await t.request('GET', `/api/fusd-orders/${res.body.id}`, { token: me.authToken });
    expect(read.body.order.events.map((e: Json) => e.type)).toEqual([
      'created',
      'authorized',
      'minting',
      'minted',
    ]);
  });

  it('the indexer serves a payment nobody reported, and a report afterwards changes nothing', async () => {
    const me = await buyer();
    const bp = await edition(900);
    const from = await latestSealedHeight(client);
    const res = await reserve(me, bp.id, 900);
    const txId = await pay(me.account, res.body.id, res.body.fusdAmount);
    const stream = `fusd-test-${randomUUID()}`;
    while (
      await runIndexerOnce(client, t.database.db, {
        stream,
        startHeight: from,
        extraEvents: [fusdPaymentEvents(client)],
      })
    ) {
      // catch up
    }
    await until(
      () => order(res.body.id),
      (o) => o.status === 'minted',
    );
    expect((await report(me, res.body.id, txId)).status).toBe(200);
    expect(await payments(res.body.id)).toHaveLength(1);
  });

  it('a payment of another amount goes back to the payer and the order still waits for the price', async () => {
    const me = await buyer('50.0');
    const bp = await edition(1000);
    const res = await reserve(me, bp.id, 1000);
    const short = await pay(me.account, res.body.id, '9.99');
    const answer = await report(me, res.body.id, short);
    expect(answer.body.order.status).toBe('created');
    await until(
      () => payments(res.body.id),
      (p) => p[0]?.status === 'SEND_FUSD_SUCCEEDED',
    );
    expect(await fusd(me.walletAddress)).toBeCloseTo(50, 6);
    const exact = await pay(me.account, res.body.id, res.body.fusdAmount);
    expect((await report(me, res.body.id, exact)).body.order.status).not.toBe('created');
    await until(
      () => order(res.body.id),
      (o) => o.status === 'minted',
    );
    expect(await fusd(me.walletAddress)).toBeCloseTo(40, 6);
  });

  it('a payment after the order expired goes back, and the timeline says so', async () => {
    const me = await buyer('30.0');
    const bp = await edition(1500);
    const res = await reserve(me, bp.id, 1500);
    expect(await expireOrders(t.database.db, new Date(Date.now() + 16 * 60_000))).toBeGreaterThan(0);
    expect((await order(res.body.id)).status).toBe('expired');
    const late = await pay(me.account, res.body.id, res.body.fusdAmount);
    const answer = await report(me, res.body.id, late);
    expect(answer.body.order.status).toBe('expired');
    expect(answer.body.order.events.map((e: Json) => e.type)).toContain('payment_returned');
    await until(
      () => payments(res.body.id),
      (p) => p[0]?.status === 'SEND_FUSD_SUCCEEDED',
    );
    expect(await fusd(me.walletAddress)).toBeCloseTo(30, 6);
  });

  it('refuses a transaction that pays another order, one not on chain, and another buyer’s order', async () => {
    const me = await buyer();
    const other = await buyer();
    const bp = await edition(700);
    const mine = await reserve(me, bp.id, 700);
    // Another person, from an address of their own (an address holds one unit of an item).
    t.address = '198.18.8.1';
    const theirs = await reserve(other, bp.id, 700);
    const txId = await pay(other.account, theirs.body.id, theirs.body.fusdAmount);
    const wrong = await report(me, mine.body.id, txId);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'TRANSACTION', field: 'transactionId' });
    const unknown = await report(me, mine.body.id, 'ab'.repeat(32));
    expect(unknown.status).toBe(409);
    expect(unknown.body.code).toBe('TRANSACTION_PENDING');
    expect((await report(me, theirs.body.id, txId)).status).toBe(404);
    const bad = await report(me, mine.body.id, 'not-a-transaction');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_VALUE', field: 'transactionId' });
    expect((await order(mine.body.id)).status).toBe('created');
  });

  it('does not sell a printed item’s new edition for the balance (only its resale listings)', async () => {
    const me = await buyer();
    const bp = await edition(900);
    await t.database.db.update(blueprints).set({ state: 'printed' }).where(eq(blueprints.id, bp.id));
    const res = await reserve(me, bp.id, 900);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('NOT_PURCHASABLE');
    expect(await t.database.db.select().from(orders).where(eq(orders.itemId, bp.id))).toEqual([]);
  });
});
