import { randomBytes } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { MintConflictError, type MintResult, type MintService } from '../../../server/chain/mint';
import { FULFIL_JOB, type OrderMethod } from '../../../server/checkout/orders';
import { railOf } from '../../../server/checkout/rails';
import { expireOrders } from '../../../server/checkout/workflow/expire';
import { createFulfilment, type FulfilmentStep } from '../../../server/checkout/workflow/fulfil';
import { blueprints, jobs, nftPurchases, orderEvents, orders, users } from '../../../server/db/schema';
import type { CardProvider } from '../../../server/payments/provider';
import { insertBlueprint } from '../../../server/seed/factory';
import { flowAddress, type Json, register, type TestApi } from './harness';
import { creator } from './sales';

/**
 * The contract every payment rail keeps (docs/checkout.md "Payment rails"), written once and run
 * against each rail by a driver of its HTTP routes and its provider's sandbox: a purchase reserves
 * one unit for the rail's time; a double submit (same idempotency key) answers the first purchase,
 * nothing reserved again; a payment that fails ends the order and gives the unit back; an unpaid
 * order expires after the rail's time; the provider's word that the order was paid, delivered 10
 * times, pays once (one `authorized` event, one fulfil job); a fulfil job stopped between its steps
 * and run again mints each edition once and records it once; a mint that fails for good gives the
 * payment back once, with the rail's message.
 */

export interface Buyer {
  id: string;
  authToken: string;
  walletAddress: string;
}
export type Item = { id: string; price: number };
export type Answer = { status: number; body: Json };
export type Started = Answer & { orderId: string };

/** What the contract needs of a rail, driven through its HTTP routes and its provider's sandbox. */
export interface RailDriver<B extends Buyer = Buyer> {
  method: OrderMethod;
  /** A new buyer who can pay on the rail (default: registered, with a Flow wallet). */
  buyer?(): Promise<B>;
  /** Starts a purchase with the idempotency key; the order id of its answer. */
  start(who: B, bp: Item, key: string): Promise<Started>;
  /**
   * A purchase whose payment fails at the provider (declined, canceled); answers its order id. A
   * rail where nothing can fail before it is paid says why instead (the case is not run for it).
   */
  fail: ((who: B, bp: Item) => Promise<string>) | { none: string };
  /** What tells the server the order was paid: "its webhook", "the report of its transfer"… */
  paidBy: string;
  /** Pays the started purchase at the provider: answers one delivery of the word that it was paid. */
  paidEvent(who: B, started: Started): Promise<() => Promise<number>>;
  /** Asserts the payment of a refunded order was given back once (at the provider, or by its job). */
  refunded(started: Started): Promise<void>;
}

/** A mint service that mints each purchase key once (as the real one does) and counts its calls. */
export function recordingMint(fail?: () => Error | undefined): MintService & { keys: string[] } {
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

export const quiet = { info: () => {}, warn: () => {}, error: () => {} } as unknown as Parameters<
  typeof createFulfilment
>[0]['log'];

/** The database reads the contract (and the drivers) make. */
export function contractReads(t: TestApi) {
  return {
    key: () => `key-${randomBytes(8).toString('hex')}`,
    async buyer(): Promise<Buyer> {
      const me = await register(t);
      const walletAddress = flowAddress();
      await t.database.db.update(users).set({ walletAddress }).where(eq(users.id, me.id));
      return { ...me, walletAddress };
    },
    async item(price = 2500): Promise<Item> {
      const shop = await creator(t);
      return insertBlueprint(t.database.db, {
        storefrontId: shop.storefront.id,
        title: `Item ${randomBytes(3).toString('hex')}`,
        price,
        quantity: 10,
      });
    },
    available: async (id: string) =>
      (
        await t.database.db
          .select({ q: blueprints.quantityAvailable })
          .from(blueprints)
          .where(eq(blueprints.id, id))
      )[0]!.q,
    orderRow: async (id: string) => (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!,
    ordersOf: async (buyerId: string) =>
      (await t.database.db.select({ n: count() }).from(orders).where(eq(orders.buyerId, buyerId)))[0]!.n,
    jobsOf: async (kind: string, k: string) =>
      (
        await t.database.db
          .select({ n: count() })
          .from(jobs)
          .where(and(eq(jobs.kind, kind), eq(jobs.key, k)))
      )[0]!.n,
    eventsOf: async (orderId: string) =>
      (await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)))
        .map((e) => e.type)
        .sort(),
  };
}

/**
 * Registers the contract's cases for one rail (inside a describe with the app `t`); `provider` is
 * the card provider the fulfil job is given (the card rail captures and refunds through it).
 */
export function railContract<B extends Buyer>(
  t: TestApi,
  rail: RailDriver<B>,
  provider: () => CardProvider | null,
) {
  const r = contractReads(t);
  const buyer = () => (rail.buyer ? rail.buyer() : (r.buyer() as Promise<B>));

  /** A paid order of the rail: started, and its provider's word delivered. */
  async function paidOrder(who: B, bp: Item) {
    const started = await rail.start(who, bp, r.key());
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const deliver = await rail.paidEvent(who, started);
    expect(await deliver()).toBe(200);
    expect((await r.orderRow(started.orderId)).status).toBe('authorized');
    return started;
  }

  it('reserves one unit for an unpaid order that holds it for the rail’s time', async () => {
    const me = await buyer();
    const bp = await r.item();
    const started = await rail.start(me, bp, r.key());
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const order = await r.orderRow(started.orderId);
    expect(order).toMatchObject({ method: rail.method, status: 'created', reserved: true, amount: bp.price });
    expect(order.expiresAt.getTime() - order.createdAt.getTime()).toBe(railOf(rail.method).orderTtlMs);
    expect(await r.available(bp.id)).toBe(9);
  });

  it('answers a double submit (same idempotency key) with the first purchase: one order, one unit', async () => {
    const me = await buyer();
    const bp = await r.item();
    const k = r.key();
    const first = await rail.start(me, bp, k);
    const again = await rail.start(me, bp, k);
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.id).toBe(first.body.id);
    expect(await r.ordersOf(me.id)).toBe(1);
    expect(await r.available(bp.id)).toBe(9);
  });

  const fail = rail.fail;
  if (typeof fail === 'function')
    it('a payment that fails ends the order and gives the unit back', async () => {
      const me = await buyer();
      const bp = await r.item();
      const orderId = await fail.call(rail, me, bp);
      const order = await r.orderRow(orderId);
      expect(['declined', 'canceled']).toContain(order.status);
      expect(order.reserved).toBe(false);
      expect(await r.available(bp.id)).toBe(10);
      expect(await r.jobsOf(FULFIL_JOB, orderId)).toBe(0);
    });

  it('expires an unpaid order after the rail’s time and gives the unit back', async () => {
    const me = await buyer();
    const bp = await r.item();
    const started = await rail.start(me, bp, r.key());
    try {
      t.clock.advance(railOf(rail.method).orderTtlMs - 60_000);
      await expireOrders(t.database.db, t.clock.now());
      expect((await r.orderRow(started.orderId)).status).toBe('created');
      t.clock.advance(2 * 60_000);
      expect(await expireOrders(t.database.db, t.clock.now())).toBeGreaterThanOrEqual(1);
    } finally {
      t.clock.reset();
    }
    expect(await r.orderRow(started.orderId)).toMatchObject({ status: 'expired', reserved: false });
    expect(await r.available(bp.id)).toBe(10);
  });

  it(`applies ${rail.paidBy} delivered 10 times at once once: one authorized event, one fulfil job`, async () => {
    const me = await buyer();
    const bp = await r.item();
    const started = await rail.start(me, bp, r.key());
    const deliver = await rail.paidEvent(me, started);
    const answers = await Promise.all(Array.from({ length: 10 }, deliver));
    expect(answers).toEqual(Array(10).fill(200));
    expect((await r.orderRow(started.orderId)).status).toBe('authorized');
    expect((await r.eventsOf(started.orderId)).filter((e) => e === 'authorized')).toHaveLength(1);
    expect(await r.jobsOf(FULFIL_JOB, started.orderId)).toBe(1);
    expect(await r.available(bp.id)).toBe(9);
  });

  it.each<FulfilmentStep>(['captured', 'minted-edition', 'minted'])(
    'a fulfil job stopped after %s and run again mints and records each edition once',
    async (stop) => {
      const me = await buyer();
      const bp = await r.item();
      const started = await paidOrder(me, bp);
      const mint = recordingMint();
      let crashed = false;
      const onStep = (step: FulfilmentStep) => {
        if (step === stop && !crashed) {
          crashed = true;
          throw new Error(`stopped after ${step}`);
        }
      };
      const job = createFulfilment({
        db: t.database.db,
        provider: provider(),
        mint,
        now: t.clock.now,
        onStep,
      });
      // The card captures (and stops there); the other rails have nothing to capture.
      const stops = stop !== 'captured' || railOf(rail.method).capture !== undefined;
      if (stops) await expect(job.fulfil(started.orderId)).rejects.toThrow('stopped');
      await job.fulfil(started.orderId, 2);
      expect((await r.orderRow(started.orderId)).status).toBe('minted');
      expect(new Set(mint.keys)).toEqual(new Set([`order-${started.orderId}-${bp.id}`]));
      const recorded = await t.database.db
        .select()
        .from(nftPurchases)
        .where(eq(nftPurchases.orderId, started.orderId));
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({ type: rail.method, amount: bp.price });
      expect((await r.eventsOf(started.orderId)).filter((e) => e === 'minted')).toHaveLength(1);
    },
  );

  it('a mint that fails for good gives the payment back once, with the rail’s message', async () => {
    const me = await buyer();
    const bp = await r.item();
    const started = await paidOrder(me, bp);
    const mint = recordingMint(() => new MintConflictError('the edition belongs to another purchase'));
    const job = createFulfilment({
      db: t.database.db,
      provider: provider(),
      mint,
      now: t.clock.now,
      log: quiet,
    });
    await job.fulfil(started.orderId);
    await job.fulfil(started.orderId);
    expect(await r.orderRow(started.orderId)).toMatchObject({
      status: 'refunded',
      reserved: false,
      failureCode: 'MINT_SAVE_FAILED',
      failureMessage: railOf(rail.method).mintFailedMessage,
    });
    expect((await r.eventsOf(started.orderId)).filter((e) => e === 'refunded')).toHaveLength(1);
    expect(await r.available(bp.id)).toBe(10);
    await rail.refunded(started);
  });
}
