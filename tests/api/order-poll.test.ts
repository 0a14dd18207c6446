import { AsyncLocalStorage } from 'node:async_hooks';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { cardCharges, orderEvents, orders, users } from '../../server/db/schema';
import { databases, flowAddress, register, type TestApi, useTestApp } from './support/harness';

/**
 * The purchase-complete pages' poll ticks, GET /api/orders/{id} and GET /api/checkout-com-charges/{id}
 * (the card purchase page's): the buyer's session is checked in the same statement that reads the
 * order or charge, and a session that ends stops the poll at once.
 */

/** An order of `buyerId` with its first timeline event (at `createdAt`), as the checkout writes them. */
async function orderOf(t: TestApi, buyerId: string, now = t.clock.now()) {
  const [order] = await t.database.db
    .insert(orders)
    .values({
      buyerId,
      idempotencyKey: crypto.randomUUID(),
      method: 'creditCard',
      itemKind: 'blueprint',
      itemId: crypto.randomUUID(),
      title: 'Tide pool',
      amount: 1500,
      walletAddress: flowAddress(),
      status: 'minting',
      expiresAt: new Date(now.getTime() + 15 * 60_000),
    })
    .returning({ id: orders.id });
  await t.database.db.insert(orderEvents).values({ orderId: order!.id, type: 'created', createdAt: now });
  return order!.id;
}

/** A card charge of `buyerId` for a new order of theirs; its id. */
async function chargeOf(t: TestApi, buyerId: string, now = t.clock.now()) {
  const orderId = await orderOf(t, buyerId, now);
  const [charge] = await t.database.db
    .insert(cardCharges)
    .values({ orderId, buyerId, status: 'Authorized', last4: '4242' })
    .returning({ id: cardCharges.id });
  return charge!.id;
}

/** Each poll: its path, and a new thing of the buyer's it polls. */
const POLLS = [
  { name: 'order', path: '/api/orders', make: orderOf },
  { name: 'card charge', path: '/api/checkout-com-charges', make: chargeOf },
] as const;

describe.each(databases)('the order poll on %s', (database) => {
  const t = useTestApp(database);
  const poll = (id: string, token: string) => t.request('GET', `/api/orders/${id}`, { token });

  it("answers the buyer's order, and 404 to anyone else", async () => {
    const me = await register(t);
    const createdAt = new Date('2026-05-01T12:34:56.789Z');
    const id = await orderOf(t, me.id, createdAt);
    const res = await poll(id, me.authToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      status: 'minting',
      editions: [],
      events: [{ type: 'created', detail: null, at: createdAt.toISOString() }],
    });
    expect((await poll(id, (await register(t)).authToken)).status).toBe(404);
    expect((await poll(crypto.randomUUID(), me.authToken)).status).toBe(404);
  });

  it("answers the buyer's card charge with its order, and 404 to anyone else", async () => {
    const me = await register(t);
    const id = await chargeOf(t, me.id);
    const res = await t.request('GET', `/api/checkout-com-charges/${id}`, { token: me.authToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, last4: '4242', success: true, order: { status: 'minting' } });
    const other = await register(t);
    expect(
      (await t.request('GET', `/api/checkout-com-charges/${id}`, { token: other.authToken })).status,
    ).toBe(404);
  });

  it.each(POLLS)(
    '$name poll stops at once when the session ends: logged out, password changed, user blocked, expired',
    async ({ path, make }) => {
      const poll = (id: string, token: string) => t.request('GET', `${path}/${id}`, { token });
      const loggedOut = await register(t);
      const id = await make(t, loggedOut.id);
      expect((await poll(id, loggedOut.authToken)).status).toBe(200);
      await t.request('DELETE', '/api/auth/sessions/current', { token: loggedOut.authToken });
      expect(await poll(id, loggedOut.authToken)).toMatchObject({
        status: 401,
        body: { code: 'UNAUTHORIZED' },
      });

      const changed = await register(t);
      const changedOrder = await make(t, changed.id);
      await t.database.db.update(users).set({ tokenVersion: 1 }).where(eq(users.id, changed.id));
      expect((await poll(changedOrder, changed.authToken)).status).toBe(401);

      const blocked = await register(t);
      const blockedOrder = await make(t, blocked.id);
      await t.database.db.update(users).set({ status: 'blocked' }).where(eq(users.id, blocked.id));
      expect((await poll(blockedOrder, blocked.authToken)).status).toBe(401);

      const idle = await register(t);
      const idleOrder = await make(t, idle.id);
      t.clock.advance(15 * 60_000 + 1000);
      expect((await poll(idleOrder, idle.authToken)).status).toBe(401);
    },
  );
});

describe('the order poll on pglite', () => {
  const t = useTestApp('pglite');

  it.each(POLLS)(
    '$name poll is one database statement: the session check and the read together',
    async ({ path, make }) => {
      const me = await register(t);
      const id = await make(t, me.id);
      const tick = () => t.request('GET', `${path}/${id}`, { token: me.authToken });
      expect((await tick()).status).toBe(200);
      // Every statement PGlite runs (a query, a prepared statement's execution) is one exclusive
      // query; those of the request are told from the app's background work by their async context.
      const pglite = (t.database.db as unknown as { $client: { _runExclusiveQuery: () => unknown } }).$client;
      const request = new AsyncLocalStorage<true>();
      let statements = 0;
      const real = pglite._runExclusiveQuery;
      const spy = vi.spyOn(pglite, '_runExclusiveQuery').mockImplementation(function (
        this: unknown,
        ...args
      ) {
        if (request.getStore()) statements++;
        return real.apply(this, args as []);
      });
      try {
        expect((await request.run(true, tick)).status).toBe(200);
        expect(statements).toBe(1);
      } finally {
        spy.mockRestore();
      }
    },
  );
});
