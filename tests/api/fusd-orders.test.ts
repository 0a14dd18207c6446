import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { databases, flowAddress, register, useTestApp } from './support/harness';

/**
 * fusd-orders' input rules on PostgreSQL, without a chain: every bad body is a 400 with its
 * field, a visitor gets 401, and without a chain the rail is off (503; config/payments says
 * balance false). Reserving, paying on chain, refunds and replays run on the emulator in
 * tests/chain/fusd.test.ts.
 */
describe.each(databases)('balance orders on %s', (database) => {
  const t = useTestApp(database);
  const key = () => `k-${randomBytes(6).toString('hex')}`;
  const id = '0f1e2d3c-4b5a-4697-8877-665544332211';

  async function buyer() {
    const me = await register(t);
    await t.database.db.update(users).set({ walletAddress: flowAddress() }).where(eq(users.id, me.id));
    return me;
  }

  it('needs a login', async () => {
    expect((await t.request('POST', '/api/fusd-orders', { body: {} })).status).toBe(401);
    expect((await t.request('GET', `/api/fusd-orders/${id}`)).status).toBe(401);
    expect((await t.request('PATCH', `/api/fusd-orders/${id}`, { body: {} })).status).toBe(401);
  });

  it('refuses bad bodies field by field, never with a 500', async () => {
    const me = await buyer();
    const cases: [unknown, string][] = [
      [{ expectedPrice: 100, idempotencyKey: key() }, 'item'],
      [{ blueprintId: id, blueprintPackId: id, expectedPrice: 100, idempotencyKey: key() }, 'item'],
      [{ blueprintId: 'nope', expectedPrice: 100, idempotencyKey: key() }, 'blueprintId'],
      [{ blueprintId: id, expectedPrice: 12.5, idempotencyKey: key() }, 'expectedPrice'],
      [{ blueprintId: id, expectedPrice: 0, idempotencyKey: key() }, 'expectedPrice'],
      [{ blueprintId: id, expectedPrice: '100', idempotencyKey: key() }, 'expectedPrice'],
      [{ blueprintId: id, expectedPrice: 100, idempotencyKey: 'short' }, 'idempotencyKey'],
    ];
    for (const [body, field] of cases) {
      const res = await t.request('POST', '/api/fusd-orders', { token: me.authToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_VALUE', field });
    }
    for (const transactionId of ['', 'xyz', 'ab'.repeat(31), 42]) {
      const res = await t.request('PATCH', `/api/fusd-orders/${id}`, {
        token: me.authToken,
        body: { transactionId },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_VALUE', field: 'transactionId' });
    }
    const noBody = await t.request('PATCH', `/api/fusd-orders/${id}`, { token: me.authToken, body: {} });
    expect(noBody.status).toBe(400);
  });

  it('answers 404 for an order that is not the caller’s balance order', async () => {
    const me = await buyer();
    expect((await t.request('GET', `/api/fusd-orders/${id}`, { token: me.authToken })).status).toBe(404);
    const patch = await t.request('PATCH', `/api/fusd-orders/${id}`, {
      token: me.authToken,
      body: { transactionId: 'ab'.repeat(32) },
    });
    expect(patch.status).toBe(404);
    expect((await t.request('GET', '/api/fusd-orders/not-a-uuid', { token: me.authToken })).status).toBe(404);
  });

  it('is off without a chain', async () => {
    const me = await buyer();
    const res = await t.request('POST', '/api/fusd-orders', {
      token: me.authToken,
      body: { blueprintId: id, expectedPrice: 100, idempotencyKey: key() },
    });
    expect(res.status).toBe(503);
    const config = await t.request('GET', '/api/config/payments');
    expect(config.body.balance).toBe(false);
  });
});
