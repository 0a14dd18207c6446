import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_KEY,
  type Sandbox,
  startCheckoutSandbox,
} from '../../sandbox/checkout-com/index';
import { getNfts } from '../../server/chain/actions';
import { createMintService } from '../../server/chain/mint';
import { MINT_FAILED_MESSAGE } from '../../server/checkout/card/rail';
import { FULFIL_JOB } from '../../server/checkout/orders';
import { createFulfilment, type FulfilmentStep } from '../../server/checkout/workflow/fulfil';
import {
  blueprints,
  cardCharges,
  jobs,
  mints,
  nftPurchases,
  nfts,
  orderItems,
  orders,
  outbox,
  users,
} from '../../server/db/schema';
import { createJobWorker, findJob, type JobWorker } from '../../server/jobs';
import { createCheckoutComProvider } from '../../server/payments/checkout-com';
import type { CardProvider } from '../../server/payments/provider';
import { insertBlueprint, insertPack } from '../../server/seed/factory';
import { type Json, register, type TestApi, useTestApp } from '../api/support/harness';
import { creator } from '../api/support/sales';
import { chainClient, freshBlueprintId, newCollector } from './support';

/**
 * Fulfilment of card orders and free claims on the real emulator: capture → serials assigned once
 * → mint to the buyer's wallet → purchases recorded; a pack mints each blueprint's next edition; a
 * mint the chain refuses is refunded; a job interrupted after capture (or after minting) runs again
 * to exactly one mint; two workers on one database never mint twice.
 */

const client = chainClient();
const quiet = { info() {}, error() {} };

describe('order fulfilment on the emulator', () => {
  let sandbox: Sandbox;
  let real: CardProvider;
  const calls = { capture: 0, refund: 0, void: 0 };
  const provider: CardProvider = {
    requestPayment: (r) => real.requestPayment(r),
    getPayment: (id) => real.getPayment(id),
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
  const t: TestApi = useTestApp('pglite', {}, { cardProvider: provider, chainClient: client });
  const workers: JobWorker[] = [];

  beforeAll(async () => {
    sandbox = await startCheckoutSandbox({ port: 0, retrySchedule: [] });
    real = createCheckoutComProvider({
      secretKey: SANDBOX_SECRET_KEY,
      publicKey: SANDBOX_PUBLIC_KEY,
      apiUrl: sandbox.url,
      webhookSignatureKey: SANDBOX_WEBHOOK_KEY,
    });
    // Chain blueprint ids no other test file mints (editions are unique per blueprint on chain).
    await t.database.db.execute(
      sql.raw(`alter table blueprints alter column flow_blueprint_id restart with ${freshBlueprintId()}`),
    );
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await sandbox?.close();
  });

  /** A worker of this test's database (as a server would run it), with fast retries. */
  function worker(
    options: { maxMintAttempts?: number; onStep?: (step: FulfilmentStep, orderId: string) => void } = {},
  ) {
    const fulfilment = createFulfilment({
      db: t.database.db,
      provider,
      mint: createMintService({ db: t.database.db, client }),
      log: quiet,
      ...options,
    });
    const w = createJobWorker({
      db: t.database.db,
      handlers: { [FULFIL_JOB]: fulfilment },
      pollMs: 50,
      backoffMs: () => 50,
      log: quiet,
    });
    workers.push(w);
    return w;
  }

  async function cardToken(number = '4242424242424242') {
    const res = await fetch(`${sandbox.url}/tokens`, {
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
    return ((await res.json()) as Json).token as string;
  }

  /** A buyer whose wallet is an emulator account (with a collection unless told otherwise). */
  async function buyer(options: { setup?: boolean } = {}) {
    const account = await newCollector(client, options);
    const me = await register(t);
    await t.database.db.update(users).set({ walletAddress: account.address }).where(eq(users.id, me.id));
    return { ...me, walletAddress: account.address };
  }

  async function pay(
    who: { authToken: string },
    item: { kind: 'blueprint' | 'pack'; id: string },
    price: number,
  ) {
    const res = await t.request('POST', '/api/checkout-com-charges', {
      token: who.authToken,
      body: {
        item,
        expectedPrice: price,
        idempotencyKey: `key-${randomBytes(8).toString('hex')}`,
        billingInfo: {
          cardToken: await cardToken(),
          firstName: 'Ada',
          addressLine1: '1 Market St',
          city: 'San Francisco',
          state: 'CA',
          country: 'US',
          zipCode: '94105',
          phoneNumber: { countryCode: '1', number: '4155550123' },
        },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Json;
  }

  async function item(values: { price?: number; quantity?: number } = {}) {
    const shop = await creator(t);
    return insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Edition ${randomBytes(3).toString('hex')}`,
      price: values.price ?? 2500,
      quantity: values.quantity ?? 10,
    });
  }

  const order = async (id: string) =>
    (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const chargeOf = async (orderId: string) =>
    (await t.database.db.select().from(cardCharges).where(eq(cardCharges.orderId, orderId)))[0]!;
  const itemsOf = (orderId: string) =>
    t.database.db
      .select()
      .from(orderItems)
      .where(eq(orderItems.orderId, orderId))
      .orderBy(orderItems.flowBlueprintId);

  async function settled(orderId: string, ms = 60_000) {
    const end = Date.now() + ms;
    for (;;) {
      const o = await order(orderId);
      if (['minted', 'refunded', 'voided'].includes(o.status)) return o;
      if (Date.now() > end) throw new Error(`order ${orderId} still ${o.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const editionsOnChain = async (wallet: string, flowBlueprintId: number) =>
    (await getNfts(client, wallet)).filter((n) => n.blueprintId === String(flowBlueprintId));

  it('captures a card order, assigns its serial once and mints it to the buyer’s wallet', async () => {
    const me = await buyer();
    const bp = await item({ price: 2500 });
    const charge = await pay(me, { kind: 'blueprint', id: bp.id }, 2500);
    const w = worker();
    w.start();
    const done = await settled(charge.orderId);
    await w.stop();

    expect(done).toMatchObject({ status: 'minted', failureCode: null, reserved: true });
    const [edition] = await itemsOf(charge.orderId);
    expect(edition).toMatchObject({
      serialNumber: 1,
      nftId: expect.any(String),
      transactionId: expect.any(String),
    });
    const onChain = await editionsOnChain(me.walletAddress, bp.flowBlueprintId);
    expect(onChain).toMatchObject([{ id: edition!.nftId, serialNumber: '1', metadata: { title: bp.title } }]);
    expect((await real.getPayment((await chargeOf(charge.orderId)).paymentId!)).status).toBe('Captured');
    expect((await chargeOf(charge.orderId)).status).toBe('MINTED');
    const purchases = await t.database.db
      .select()
      .from(nftPurchases)
      .where(eq(nftPurchases.orderId, charge.orderId));
    expect(purchases).toMatchObject([
      {
        transactionId: edition!.transactionId,
        buyerId: me.id,
        walletAddress: me.walletAddress,
        nftId: edition!.nftId,
        type: 'creditCard',
        amount: 2500,
      },
    ]);
    expect(await t.database.db.select().from(nfts).where(eq(nfts.id, edition!.nftId!))).toMatchObject([
      { blueprintId: bp.flowBlueprintId, serialNumber: 1, owner: me.walletAddress },
    ]);
    const answer = await t.request('GET', `/api/checkout-com-charges/${charge.id}`, { token: me.authToken });
    expect(answer.body).toMatchObject({ status: 'MINTED', success: true, order: { status: 'minted' } });
    expect(answer.body.order.events.map((e: Json) => e.type)).toEqual([
      'created',
      'authorized',
      'captured',
      'minting',
      'minted',
    ]);
    // The buyer's purchases list shows it.
    const mine = await t.request('GET', '/api/nfts/purchases', { token: me.authToken });
    expect(mine.body.results).toMatchObject([{ type: 'creditCard', amount: 2500, blueprintId: bp.id }]);

    // Running the job again changes nothing.
    const again = worker();
    await t.database.db
      .update(jobs)
      .set({ status: 'queued', runAt: new Date(0) })
      .where(eq(jobs.key, charge.orderId));
    expect(await again.runOnce()).toBe(true);
    expect(await editionsOnChain(me.walletAddress, bp.flowBlueprintId)).toHaveLength(1);
    expect(
      await t.database.db.select().from(nftPurchases).where(eq(nftPurchases.orderId, charge.orderId)),
    ).toHaveLength(1);
  });

  it('tells the creator of each sale: one notice and one email, none again on a rerun, no email once turned off', async () => {
    const shop = await creator(t);
    const bp = await insertBlueprint(t.database.db, {
      storefrontId: shop.storefront.id,
      title: `Edition ${randomBytes(3).toString('hex')}`,
      price: 2500,
      quantity: 10,
      royaltyPercent: 10,
      totalFeePercent: 5,
    });
    const emails = async () => t.database.db.select().from(outbox).where(eq(outbox.to, shop.email));
    const buy = async () => {
      const me = await buyer();
      const charge = await pay(me, { kind: 'blueprint', id: bp.id }, 2500);
      const w = worker();
      w.start();
      await settled(charge.orderId);
      await w.stop();
      return charge;
    };
    const first = await buy();
    const notices = await t.request('GET', '/api/notifications', { token: shop.authToken });
    expect(notices.body).toMatchObject({
      unread: 1,
      results: [{ kind: 'sale', title: bp.title, serialNumber: 1, amount: 2500, net: 2375, read: false }],
    });
    expect((await emails()).map((m) => m.subject)).toEqual([`Sold: ${bp.title} #01`]);
    // The creator sells: no royalty to themselves, only the platform fee.
    expect((await emails())[0]!.text).toContain('sold for $25. After the platform fee, $23.75 is yours.');

    // The job again: nothing new.
    await t.database.db
      .update(jobs)
      .set({ status: 'queued', runAt: new Date(0) })
      .where(eq(jobs.key, first.orderId));
    expect(await worker().runOnce()).toBe(true);
    expect(
      (await t.request('GET', '/api/notifications', { token: shop.authToken })).body.results,
    ).toHaveLength(1);
    expect(await emails()).toHaveLength(1);

    // Emails off: the notice still comes, the email does not.
    const off = await t.request('PATCH', '/api/users/me', {
      token: shop.authToken,
      body: { saleEmails: false },
    });
    expect(off.body.saleEmails).toBe(false);
    await buy();
    const after = await t.request('GET', '/api/notifications', { token: shop.authToken });
    expect(after.body.results.map((n: Json) => n.serialNumber)).toEqual([2, 1]);
    expect(await emails()).toHaveLength(1);
    await t.request('POST', '/api/notifications/actions/read', { token: shop.authToken });
    expect((await t.request('GET', '/api/notifications', { token: shop.authToken })).body.unread).toBe(0);
  });

  it('mints a pack as the next edition of each of its blueprints, splitting the price', async () => {
    const shop = await creator(t);
    const pack = await insertPack(t.database.db, {
      storefrontId: shop.storefront.id,
      title: 'Duo',
      price: 1001,
      quantity: 5,
    });
    const parts = [];
    for (const n of [1, 2])
      parts.push(
        await insertBlueprint(t.database.db, {
          storefrontId: shop.storefront.id,
          title: `Duo part ${n}`,
          price: 0,
          quantity: 5,
          blueprintPackId: pack.id,
          type: 'standaloneInPack',
        }),
      );
    // Part 1 already has editions 1–3 (minted before, e.g. by the seed).
    await t.database.db.insert(nfts).values({
      id: String(9_000_000_000 + Number(randomBytes(3).readUIntBE(0, 3))),
      blueprintId: parts[0]!.flowBlueprintId,
      serialNumber: 3,
      owner: '0x0000000000000001',
    });
    const first = await buyer();
    const second = await buyer();
    const a = await pay(first, { kind: 'pack', id: pack.id }, 1001);
    const b = await pay(second, { kind: 'pack', id: pack.id }, 1001);
    const w = worker();
    w.start();
    await settled(a.orderId);
    await settled(b.orderId);
    await w.stop();

    expect((await itemsOf(a.orderId)).map((i) => i.serialNumber)).toEqual([4, 1]);
    expect((await itemsOf(b.orderId)).map((i) => i.serialNumber)).toEqual([5, 2]);
    for (const [who, serials] of [
      [first, ['4', '1']],
      [second, ['5', '2']],
    ] as const) {
      const held = await getNfts(client, who.walletAddress);
      expect(held.map((n) => [n.blueprintId, n.serialNumber])).toEqual(
        parts.map((p, i) => [String(p.flowBlueprintId), serials[i]]),
      );
    }
    const amounts = await t.database.db
      .select({ amount: nftPurchases.amount })
      .from(nftPurchases)
      .where(eq(nftPurchases.orderId, a.orderId));
    expect(amounts.map((r) => r.amount).sort()).toEqual([500, 501]);
  });

  it('refunds an order whose mint the chain refuses (the wallet has no collection)', async () => {
    const me = await buyer({ setup: false });
    const bp = await item({ price: 1800 });
    const charge = await pay(me, { kind: 'blueprint', id: bp.id }, 1800);
    const before = calls.refund;
    const w = worker({ maxMintAttempts: 2 });
    w.start();
    const done = await settled(charge.orderId);
    await w.stop();

    expect(done).toMatchObject({
      status: 'refunded',
      reserved: false,
      failureCode: 'MINT_SAVE_FAILED',
      failureMessage: MINT_FAILED_MESSAGE,
    });
    expect(calls.refund).toBe(before + 1);
    const c = await chargeOf(charge.orderId);
    expect(c.status).toBe('Refunded');
    expect((await real.getPayment(c.paymentId!)).status).toBe('Refunded');
    const [b] = await t.database.db.select().from(blueprints).where(eq(blueprints.id, bp.id));
    expect(b!.quantityAvailable).toBe(10);
    expect(
      await t.database.db.select().from(nftPurchases).where(eq(nftPurchases.orderId, charge.orderId)),
    ).toEqual([]);
    expect((await findJob(t.database.db, FULFIL_JOB, charge.orderId))?.attempts).toBe(2);
    const answer = await t.request('GET', `/api/orders/${charge.orderId}`, { token: me.authToken });
    expect(answer.body).toMatchObject({
      status: 'refunded',
      failure: { code: 'MINT_SAVE_FAILED', message: MINT_FAILED_MESSAGE },
    });
    expect(answer.body.events.map((e: Json) => e.type)).toEqual([
      'created',
      'authorized',
      'captured',
      'minting',
      'mint_failed',
      'refunded',
    ]);
  });

  it('a job interrupted after capture, or after minting, runs again to exactly one mint', async () => {
    for (const crashAt of ['captured', 'minted'] as const) {
      const me = await buyer();
      const bp = await item();
      const charge = await pay(me, { kind: 'blueprint', id: bp.id }, 2500);
      let crashed = 0;
      const w = worker({
        onStep: (step) => {
          if (step === crashAt && crashed++ === 0) throw new Error(`killed after ${crashAt}`);
        },
      });
      const capturesBefore = calls.capture;
      expect(await w.runOnce()).toBe(true);
      const interrupted = await order(charge.orderId);
      expect(interrupted.status, crashAt).toBe(crashAt === 'captured' ? 'authorized' : 'minting');
      expect((await findJob(t.database.db, FULFIL_JOB, charge.orderId))?.lastError).toBe(
        `killed after ${crashAt}`,
      );
      w.start();
      await settled(charge.orderId);
      await w.stop();

      expect(await order(charge.orderId)).toMatchObject({ status: 'minted' });
      expect(await editionsOnChain(me.walletAddress, bp.flowBlueprintId)).toHaveLength(1);
      expect((await itemsOf(charge.orderId))[0]!.serialNumber).toBe(1);
      expect(
        await t.database.db.select().from(mints).where(eq(mints.blueprintId, bp.flowBlueprintId)),
      ).toHaveLength(1);
      expect(
        await t.database.db.select().from(nftPurchases).where(eq(nftPurchases.orderId, charge.orderId)),
      ).toHaveLength(1);
      // Captured once at the provider whatever the retries (same idempotency key).
      expect(calls.capture - capturesBefore).toBe(crashAt === 'captured' ? 2 : 1);
      expect((await real.getPayment((await chargeOf(charge.orderId)).paymentId!)).status).toBe('Captured');
    }
  });

  it('two workers on one database never mint an edition twice', async () => {
    const bp = await item({ quantity: 20 });
    const buyers = [await buyer(), await buyer(), await buyer(), await buyer()];
    const charges = [];
    for (const b of buyers) charges.push(await pay(b, { kind: 'blueprint', id: bp.id }, 2500));
    const [a, b] = [worker(), worker()];
    a.start();
    b.start();
    for (const c of charges) await settled(c.orderId);
    await Promise.all([a.stop(), b.stop()]);

    const serials = [];
    for (const [i, c] of charges.entries()) {
      const [edition] = await itemsOf(c.orderId);
      serials.push(edition!.serialNumber);
      expect(await editionsOnChain(buyers[i]!.walletAddress, bp.flowBlueprintId)).toMatchObject([
        { id: edition!.nftId, serialNumber: String(edition!.serialNumber) },
      ]);
    }
    expect([...serials].sort()).toEqual([1, 2, 3, 4]);
    const minted = await t.database.db.select().from(mints).where(eq(mints.blueprintId, bp.flowBlueprintId));
    expect(minted).toHaveLength(4);
    const jobRows = await t.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, FULFIL_JOB), eq(jobs.status, 'done')));
    for (const c of charges) expect(jobRows.filter((j) => j.key === c.orderId)).toHaveLength(1);
  });

  it('mints a free claim to the claimer’s wallet and records it as a free claim', async () => {
    const me = await buyer();
    const bp = await item({ price: 0 });
    const claim = await t.request('POST', '/api/free-blueprint-claims', {
      token: me.authToken,
      body: { blueprintId: bp.id },
    });
    expect(claim.status).toBe(201);
    const w = worker();
    w.start();
    const done = await settled(claim.body.orderId);
    await w.stop();
    expect(done.status).toBe('minted');
    expect(await editionsOnChain(me.walletAddress, bp.flowBlueprintId)).toHaveLength(1);
    expect(
      await t.database.db.select().from(nftPurchases).where(eq(nftPurchases.orderId, claim.body.orderId)),
    ).toMatchObject([{ type: 'freeBlueprintClaim', amount: 0, buyerId: me.id }]);
  });
});
