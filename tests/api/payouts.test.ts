import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ApiError } from '#domain/errors';
import { payoutRequests } from '../../server/db/schema';
import { createApi } from '../../src/services/api';
import { salesService } from '../../src/services/sales';
import { databases, type Json, register, useTestApp } from './support/harness';
import { blueprint, creator, day, payoutRequest, sale } from './support/sales';

/**
 * The payout-requests API: a request needs at least 1000 cents of available funds and at most all of
 * them; one open request per storefront; the owner cancels one in state created; a failure shows the
 * server's message, else errors.default.
 */
describe.each(databases)('payout requests on %s', (database) => {
  const t = useTestApp(database);
  const list = (token: string | undefined, query = '') =>
    t.request('GET', `/api/payout-requests${query}`, { token });
  const post = (token: string | undefined, body: Json) =>
    t.request('POST', '/api/payout-requests', { token, body });
  const patch = (token: string | undefined, id: string, body: Json) =>
    t.request('PATCH', `/api/payout-requests/${id}`, { token, body });

  /** A creator whose sales net `net` cents (no royalty or fee). */
  async function earning(net: number) {
    const owner = await creator(t);
    if (net > 0) {
      const bp = await blueprint(t, owner.storefront.id, { royaltyPercent: 0, totalFeePercent: 0 });
      await sale(t, bp, { serial: 1, amount: net, purchasedOn: day(1) });
    }
    return owner;
  }

  it('charts the sales and the funds from the same ledger as the table: owner only', async () => {
    const owner = await creator(t);
    const bp = await blueprint(t, owner.storefront.id, { royaltyPercent: 10, totalFeePercent: 5 });
    const now = t.clock.now().getTime();
    await sale(t, bp, { serial: 1, amount: 2000, purchasedOn: new Date(now - 2 * 86_400_000) });
    await sale(t, bp, { serial: 2, amount: 4000, purchasedOn: new Date(now - 3_600_000) });
    await payoutRequest(t, owner, 1000, 'created', new Date(now - 1_800_000));
    const chart = await t.request('GET', `/api/sales/chart?storefrontId=${owner.storefront.id}&days=7`, {
      token: owner.authToken,
    });
    expect(chart.status).toBe(200);
    expect(chart.body.bucket).toBe('day');
    expect(chart.body.sales).toHaveLength(7);
    const counted = chart.body.sales.reduce((sum: number, b: Json) => sum + b.count, 0);
    const net = chart.body.sales.reduce((sum: number, b: Json) => sum + b.net, 0);
    // The table's figures: 2 sales and their net.
    const sales = await t.request('GET', `/api/sales?storefrontId=${owner.storefront.id}`, {
      token: owner.authToken,
    });
    expect(counted).toBe(sales.body.total);
    expect(net).toBe(sales.body.results.reduce((sum: number, r: Json) => sum + r.net, 0));
    expect(chart.body.funds.at(-1).available).toBe((await list(owner.authToken)).body.available);
    expect(chart.body.requests).toMatchObject([{ amount: 1000, state: 'created' }]);
    const weekly = await t.request(
      'GET',
      `/api/sales/chart?storefrontId=${owner.storefront.id}&days=90&bucket=week`,
      {
        token: owner.authToken,
      },
    );
    expect(weekly.body.sales.length).toBeGreaterThanOrEqual(13);
    const bad = await t.request('GET', `/api/sales/chart?storefrontId=${owner.storefront.id}&days=8`, {
      token: owner.authToken,
    });
    expect(bad.body).toMatchObject({ code: 'INVALID_VALUE', field: 'days' });
    const other = await register(t);
    expect(
      (
        await t.request('GET', `/api/sales/chart?storefrontId=${owner.storefront.id}`, {
          token: other.authToken,
        })
      ).status,
    ).toBe(403);
  });

  it('needs a login; userId may only name the caller', async () => {
    const owner = await earning(5000);
    const other = await register(t);
    expect((await list(undefined)).status).toBe(401);
    expect((await post(undefined, { amount: 1000 })).status).toBe(401);
    expect(
      (await patch(undefined, '00000000-0000-4000-8000-000000000000', { state: 'cancelled' })).status,
    ).toBe(401);
    const foreign = await list(owner.authToken, `?userId=${other.id}`);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: 'FORBIDDEN' });
    expect((await list(owner.authToken, `?userId=${owner.id}`)).body).toMatchObject({ available: 5000 });
    expect((await list(owner.authToken, '?userId=nope')).body).toMatchObject({
      code: 'INVALID_VALUE',
      field: 'userId',
    });
    // Someone without a storefront has nothing to pay out.
    expect((await list(other.authToken)).body).toEqual({
      results: [],
      total: 0,
      available: 0,
      minimum: 1000,
      page: 1,
      pageSize: 50,
    });
    const refused = await post(other.authToken, { amount: 1000 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'NO_STOREFRONT' });
  });

  it('computes the available funds: net of the sales minus created, pending, approved and payed requests', async () => {
    const owner = await creator(t);
    const bp = await blueprint(t, owner.storefront.id, { royaltyPercent: 10, totalFeePercent: 7.5 });
    // A primary sale nets the platform fee only (the creator owes no royalty to themselves).
    await sale(t, bp, { serial: 1, amount: 2500, purchasedOn: day(1) }); // net 2312
    await sale(t, bp, { serial: 2, amount: 10_000, purchasedOn: day(2) }); // net 9250
    const resale = await sale(t, bp, { serial: 3, amount: 4000, purchasedOn: day(3) }); // net 3700
    await sale(t, bp, {
      serial: 3,
      amount: 50_000,
      purchasedOn: day(4),
      type: 'saleListing',
      nftId: resale.nftId,
    });
    expect((await list(owner.authToken)).body.available).toBe(2312 + 9250 + 3700);
    const states = ['approved', 'payed', 'denied', 'cancelled', 'failed', 'pending'] as const;
    for (const [i, state] of states.entries())
      await payoutRequest(t, owner, 1000 * (i + 1), state, day(10 + i));
    const res = await list(owner.authToken);
    expect(res.status).toBe(200);
    expect(res.body.available).toBe(15_262 - 1000 - 2000 - 6000);
    expect(res.body.minimum).toBe(1000);
    expect(res.body.total).toBe(6);
    // Newest first.
    expect(res.body.results.map((r: Json) => [r.state, r.amount])).toEqual(
      [...states.entries()].reverse().map(([i, state]) => [state, 1000 * (i + 1)]),
    );
    expect(res.body.results[0]).toEqual({
      id: expect.any(String),
      amount: 6000,
      state: 'pending',
      createdAt: day(15).toISOString(),
    });
    const paged = await list(owner.authToken, '?pageSize=25&page=2');
    expect(paged.body).toMatchObject({ results: [], total: 6, page: 2, pageSize: 25 });
    expect((await list(owner.authToken, '?pageSize=7')).body).toMatchObject({ field: 'pageSize' });
  });

  it('validates the amount: whole cents, at least 1000, at most the available funds', async () => {
    const owner = await earning(2500);
    for (const [amount, code] of [
      [999, 'PAYOUT_MINIMUM'],
      [0, 'PAYOUT_MINIMUM'],
      [-5000, 'PAYOUT_MINIMUM'],
      [1000.5, 'INVALID_VALUE'],
      ['1000', 'INVALID_VALUE'],
      [undefined, 'INVALID_VALUE'],
      [2501, 'INSUFFICIENT_FUNDS'],
    ] as const) {
      const res = await post(owner.authToken, amount === undefined ? {} : { amount });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body, String(amount)).toMatchObject({ code, field: 'amount' });
    }
    expect((await post(owner.authToken, { amount: 999 })).body.message).toBe('The minimum payout is $10.');
    expect((await list(owner.authToken)).body.total).toBe(0);

    const poor = await earning(999);
    expect((await post(poor.authToken, { amount: 1000 })).body).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
  });

  it('creates a request, then refuses another while it is open (PAYOUT_PENDING)', async () => {
    const owner = await earning(5000);
    const res = await post(owner.authToken, { amount: 2000 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      amount: 2000,
      state: 'created',
      createdAt: expect.any(String),
    });
    expect((await list(owner.authToken)).body).toMatchObject({ available: 3000, total: 1 });
    const again = await post(owner.authToken, { amount: 1000 });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: 'PAYOUT_PENDING', message: 'Payout request already pending' });
    // Still open while pending; once approved, the next may be asked for.
    await t.database.db
      .update(payoutRequests)
      .set({ state: 'pending' })
      .where(eq(payoutRequests.id, res.body.id));
    expect((await post(owner.authToken, { amount: 1000 })).body).toMatchObject({ code: 'PAYOUT_PENDING' });
    await t.database.db
      .update(payoutRequests)
      .set({ state: 'approved' })
      .where(eq(payoutRequests.id, res.body.id));
    t.clock.advance(1000);
    expect((await post(owner.authToken, { amount: 3000 })).status).toBe(201);
    expect((await list(owner.authToken)).body.available).toBe(0);
  });

  it('lets only one of concurrent requests through; the others answer PAYOUT_PENDING, never 500', async () => {
    const owner = await earning(10_000);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => post(owner.authToken, { amount: 1500 })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400]);
    for (const a of answers.filter((x) => x.status === 400)) {
      expect(a.body).toEqual({ code: 'PAYOUT_PENDING', message: 'Payout request already pending' });
    }
    const rows = await t.database.db
      .select()
      .from(payoutRequests)
      .where(eq(payoutRequests.storefrontId, owner.storefront.id));
    expect(rows).toHaveLength(1);
  });

  it('the unique index itself refuses a second open request', async () => {
    const owner = await earning(10_000);
    await payoutRequest(t, owner, 1000, 'created', day(2));
    await expect(payoutRequest(t, owner, 1000, 'pending', day(3))).rejects.toThrow();
  });

  it('cancels: only the owner, only from created, only to cancelled', async () => {
    const owner = await earning(5000);
    const other = await creator(t);
    const created = (await post(owner.authToken, { amount: 1500 })).body;
    expect((await list(owner.authToken)).body.available).toBe(3500);

    const foreign = await patch(other.authToken, created.id, { state: 'cancelled' });
    expect(foreign.status).toBe(403);
    for (const body of [{ state: 'nope' }, {}]) {
      const res = await patch(owner.authToken, created.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_VALUE', field: 'state' });
    }
    // Every other move is an admin's (tests/api/admin.test.ts).
    for (const state of ['approved', 'payed', 'denied']) {
      const res = await patch(owner.authToken, created.id, { state });
      expect(res.status, state).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    expect(
      (await patch(owner.authToken, '00000000-0000-4000-8000-000000000000', { state: 'cancelled' })).status,
    ).toBe(404);
    expect((await patch(owner.authToken, 'nope', { state: 'cancelled' })).status).toBe(404);

    const cancelled = await patch(owner.authToken, created.id, { state: 'cancelled' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ ...created, state: 'cancelled' });
    expect((await list(owner.authToken)).body.available).toBe(5000);
    const twice = await patch(owner.authToken, created.id, { state: 'cancelled' });
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ code: 'PAYOUT_NOT_CANCELLABLE' });

    // A new request may follow; once an administrator has moved it on, it cannot be cancelled.
    t.clock.advance(1000);
    const next = (await post(owner.authToken, { amount: 1000 })).body;
    for (const state of ['pending', 'approved', 'payed', 'denied', 'failed'] as const) {
      await t.database.db.update(payoutRequests).set({ state }).where(eq(payoutRequests.id, next.id));
      const res = await patch(owner.authToken, next.id, { state: 'cancelled' });
      expect(res.status, state).toBe(400);
      expect(res.body, state).toMatchObject({ code: 'PAYOUT_NOT_CANCELLABLE' });
    }
  });
});

/** The browser's sales service (src/services/sales.ts) against the real app. */
describe('the browser’s sales service against the API', () => {
  const t = useTestApp('pglite');
  const service = (token: string) => {
    const saved: Array<{ text: string; filename: string; type: string }> = [];
    const api = createApi({
      baseUrl: 'http://vitrine.test/api',
      getToken: () => token,
      onUnauthorized: () => {},
      fetch: (input, init) => t.app.fetch(new Request(input, init)) as Promise<Response>,
    });
    return {
      sales: salesService(api, (text, filename, type) => saved.push({ text, filename, type })),
      saved,
    };
  };

  it('lists sales, requests and cancels payouts, and saves the ledger CSV', async () => {
    const owner = await creator(t);
    const bp = await blueprint(t, owner.storefront.id, {
      title: 'Harbor Lights',
      royaltyPercent: 0,
      totalFeePercent: 0,
    });
    await sale(t, bp, { serial: 1, amount: 4000, purchasedOn: day(1) });
    const { sales, saved } = service(owner.authToken);

    const page = await sales.list({ storefrontId: owner.storefront.id, pageSize: 25 });
    expect(page).toMatchObject({ total: 1, page: 1, pageSize: 25 });
    expect(page.results[0]!.purchasedOn).toEqual(day(1));

    expect(await sales.payouts()).toMatchObject({ available: 4000, minimum: 1000, total: 0 });
    const created = await sales.requestPayout({ amount: 1500 });
    expect(created).toMatchObject({ amount: 1500, state: 'created' });
    const refused = (await sales.requestPayout({ amount: 1000 }).catch((e: unknown) => e)) as ApiError;
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused.body).toEqual({ code: 'PAYOUT_PENDING', message: 'Payout request already pending' });
    expect(await sales.cancelPayout({ id: created.id })).toMatchObject({
      id: created.id,
      state: 'cancelled',
    });
    expect((await sales.payouts()).available).toBe(4000);

    await sales.exportLedger({ storefrontId: owner.storefront.id });
    expect(saved).toHaveLength(1);
    expect(saved[0]!.type).toBe('text/csv;charset=utf-8');
    expect(saved[0]!.filename).toMatch(/^vitrine-sales-ledger-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = saved[0]!.text.trim().split('\r\n');
    expect(lines[0]!.startsWith('sale_id,purchased_on,')).toBe(true);
    expect(lines[1]).toContain(',Harbor Lights,1,,Completed,4000,40.00,0.00,0.00,40.00,');

    const other = await register(t);
    const denied = (await service(other.authToken)
      .sales.exportLedger({ storefrontId: owner.storefront.id })
      .catch((e: unknown) => e)) as ApiError;
    expect(denied.status).toBe(403);
  });
});
