import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminListOrder } from '#domain/admin';
import { storefrontReports } from '../../server/db/schema';
import { registerAdmin as admin, databases, type Json, register, useTestApp } from './support/harness';
import { blueprint, creator, day, payoutRequest, sale } from './support/sales';

/**
 * The back office: lists (page, pageSize, searchText, status, total) for admins only, payout
 * requests moved through their states, reports resolved or dismissed, storefronts suspended and
 * users blocked (no login, no working token).
 */
describe.each(databases)('the back office on %s', (database) => {
  const t = useTestApp(database);
  const get = (token: string | undefined, path: string) => t.request('GET', `/api/${path}`, { token });
  const patch = (token: string | undefined, path: string, body: Json) =>
    t.request('PATCH', `/api/${path}`, { token, body });

  it('lists everything to admins only: 401 anonymous, 403 signed-in', async () => {
    const boss = await admin(t);
    const someone = await register(t);
    for (const list of adminListOrder) {
      expect((await get(undefined, `admin/${list}`)).status).toBe(401);
      expect((await get(someone.authToken, `admin/${list}`)).status).toBe(403);
      const res = await get(boss.authToken, `admin/${list}`);
      expect([list, res.status]).toEqual([list, 200]);
      expect(res.body).toMatchObject({ page: 1, pageSize: 50 });
      expect(res.body.total).toBeGreaterThanOrEqual(res.body.results.length);
    }
    expect((await get(someone.authToken, 'storefront-reports')).status).toBe(403);
  });

  it('pages, searches (wildcards literal) and narrows by status', async () => {
    const boss = await admin(t);
    const marker = `zeta${Date.now().toString(36)}`;
    for (let i = 0; i < 3; i++) await register(t, { email: `${marker}.${i}@example.com` });
    await register(t, { email: `${marker}%x@example.com`.replace('%', '') });
    const page1 = await get(boss.authToken, `admin/users?searchText=${marker}&pageSize=25`);
    expect(page1.body.total).toBe(4);
    const literal = await get(boss.authToken, `admin/users?searchText=${encodeURIComponent(`${marker}%`)}`);
    expect(literal.body.total).toBe(0);
    const page2 = await get(boss.authToken, `admin/users?searchText=${marker}&page=2&pageSize=25`);
    expect(page2.body).toMatchObject({ results: [], total: 4, page: 2 });
    const blockedOnly = await get(boss.authToken, `admin/users?searchText=${marker}&status=blocked`);
    expect(blockedOnly.body.total).toBe(0);
    expect((await get(boss.authToken, 'admin/users?pageSize=7')).body).toMatchObject({
      code: 'INVALID_VALUE',
      field: 'pageSize',
    });
    expect((await get(boss.authToken, 'admin/users?status=nope')).body).toMatchObject({ field: 'status' });
    expect((await get(boss.authToken, `admin/users?searchText=${'x'.repeat(101)}`)).status).toBe(400);
    // Every list takes any search text, also one its uuid columns are searched for (as text).
    for (const list of adminListOrder) {
      const res = await get(boss.authToken, `admin/${list}?searchText=${'0'.repeat(100)}`);
      expect([list, res.status, res.body.total]).toEqual([list, 200, 0]);
    }
  });

  it('moves a payout request through its states; the owner keeps only cancel of created', async () => {
    const boss = await admin(t);
    const owner = await creator(t);
    const bp = await blueprint(t, owner.storefront.id, { royaltyPercent: 0, totalFeePercent: 0 });
    await sale(t, bp, { serial: 1, amount: 50_000, purchasedOn: day(1) });
    const request = await payoutRequest(t, owner, 20_000, 'created', day(2));
    const move = (token: string, state: string) => patch(token, `payout-requests/${request.id}`, { state });

    // The owner cannot approve their own request; an admin cannot cancel it for them.
    expect((await move(owner.authToken, 'approved')).status).toBe(403);
    expect((await move(boss.authToken, 'cancelled')).status).toBe(403);
    // created → payed skips approval: refused.
    const skip = await move(boss.authToken, 'payed');
    expect(skip.status).toBe(400);
    expect(skip.body.code).toBe('PAYOUT_STATE');
    expect((await move(boss.authToken, 'approved')).body.state).toBe('approved');
    // Approved: the owner can no longer cancel.
    expect((await move(owner.authToken, 'cancelled')).body.code).toBe('PAYOUT_NOT_CANCELLABLE');
    expect((await move(boss.authToken, 'pending')).body.state).toBe('pending');
    expect((await move(boss.authToken, 'failed')).body.state).toBe('failed');
    expect((await move(boss.authToken, 'pending')).body.state).toBe('pending');
    expect((await move(boss.authToken, 'payed')).body.state).toBe('payed');
    expect((await move(boss.authToken, 'pending')).body.code).toBe('PAYOUT_STATE');

    const mine = await get(owner.authToken, 'payout-requests');
    expect(mine.body.results[0]).toMatchObject({ id: request.id, state: 'payed' });
    // Payed holds its amount: 500 − 200 = 300 available.
    expect(mine.body.available).toBe(30_000);
    const listed = await get(
      boss.authToken,
      `admin/payout-requests?status=payed&searchText=${owner.storefront.name}`,
    );
    expect(listed.body.results).toMatchObject([{ id: request.id, state: 'payed', amount: 20_000 }]);
  });

  it('denies a request, which frees its amount, and the owner may ask again', async () => {
    const boss = await admin(t);
    const owner = await creator(t);
    const bp = await blueprint(t, owner.storefront.id, { royaltyPercent: 0, totalFeePercent: 0 });
    await sale(t, bp, { serial: 1, amount: 10_000, purchasedOn: day(1) });
    const request = await payoutRequest(t, owner, 10_000, 'created', day(2));
    expect(
      (await patch(boss.authToken, `payout-requests/${request.id}`, { state: 'denied' })).body.state,
    ).toBe('denied');
    expect((await get(owner.authToken, 'payout-requests')).body.available).toBe(10_000);
    const again = await t.request('POST', '/api/payout-requests', {
      token: owner.authToken,
      body: { amount: 10_000 },
    });
    expect(again.status).toBe(201);
  });

  it('resolves or dismisses an open report once, and suspends the reported storefront', async () => {
    const boss = await admin(t);
    const shop = await creator(t);
    const reporter = await register(t);
    const created = await t.request('POST', '/api/storefront-reports', {
      token: reporter.authToken,
      body: { storefrontId: shop.storefront.id, reason: 'offensive', description: 'Copies my art' },
    });
    expect(created.status).toBe(201);
    const [report] = await t.database.db
      .select()
      .from(storefrontReports)
      .where(eq(storefrontReports.storefrontId, shop.storefront.id));
    const listed = await get(
      boss.authToken,
      `storefront-reports?searchText=${encodeURIComponent(shop.storefront.name)}`,
    );
    expect(listed.body.results).toMatchObject([
      { id: report!.id, status: 'created', reporter: reporter.email, storefrontSuspended: false },
    ]);
    expect(
      (await patch(reporter.authToken, `storefront-reports/${report!.id}`, { status: 'resolved' })).status,
    ).toBe(403);
    expect(
      (await patch(boss.authToken, `storefront-reports/${report!.id}`, { status: 'resolved' })).body,
    ).toEqual({
      id: report!.id,
      status: 'resolved',
    });
    const twice = await patch(boss.authToken, `storefront-reports/${report!.id}`, { status: 'cancelled' });
    expect(twice.body.code).toBe('REPORT_CLOSED');

    const suspended = await patch(boss.authToken, `admin/storefronts/${shop.storefront.id}`, {
      suspended: true,
    });
    expect(suspended.body).toEqual({ id: shop.storefront.id, enabled: false, suspended: true });
    // The owner cannot enable a suspended storefront.
    const enable = await patch(shop.authToken, `storefronts/${shop.storefront.id}`, { enabled: true });
    expect(enable.status).toBe(403);
    expect(enable.body.code).toBe('STOREFRONT_SUSPENDED');
    await patch(boss.authToken, `admin/storefronts/${shop.storefront.id}`, { suspended: false });
    expect((await patch(shop.authToken, `storefronts/${shop.storefront.id}`, { enabled: true })).status).toBe(
      200,
    );
  });

  it('blocks a user: their token stops working and they cannot log in; unblocking lets them back', async () => {
    const boss = await admin(t);
    const user = await register(t);
    expect((await get(user.authToken, 'users/me')).status).toBe(200);
    expect((await patch(boss.authToken, `admin/users/${user.id}`, { status: 'blocked' })).body).toEqual({
      id: user.id,
      status: 'blocked',
    });
    expect((await get(user.authToken, 'users/me')).status).toBe(401);
    const login = () =>
      t.request('POST', '/api/auth/logins', { body: { email: user.email, password: user.password } });
    expect((await login()).status).toBe(403);
    await patch(boss.authToken, `admin/users/${user.id}`, { status: 'active' });
    expect((await login()).status).toBe(200);
    // An admin may not block themself (403, naming the field).
    expect((await patch(boss.authToken, `admin/users/${boss.id}`, { status: 'blocked' })).status).toBe(403);
    expect(
      (await patch(boss.authToken, `admin/users/${crypto.randomUUID()}`, { status: 'blocked' })).status,
    ).toBe(404);
  });

  it('records every admin action in the audit log, with who, on what, and the change', async () => {
    const boss = await admin(t);
    const user = await register(t);
    const shop = await creator(t);
    const payout = await payoutRequest(t, shop, 2_000, 'created', day(1));
    await patch(boss.authToken, `admin/users/${user.id}`, { status: 'blocked' });
    await patch(boss.authToken, `admin/users/${user.id}`, { status: 'active' });
    await patch(boss.authToken, `admin/storefronts/${shop.storefront.id}`, { suspended: true });
    await patch(boss.authToken, `payout-requests/${payout.id}`, { state: 'approved' });
    // What was refused leaves no record: the self-block, and a move the state does not allow.
    await patch(boss.authToken, `admin/users/${boss.id}`, { status: 'blocked' });
    await patch(boss.authToken, `payout-requests/${payout.id}`, { state: 'approved' });
    // The owner's own cancel is not an admin action either.
    const other = await creator(t);
    const mine = await payoutRequest(t, other, 2_000, 'created', day(2));
    expect((await patch(other.authToken, `payout-requests/${mine.id}`, { state: 'cancelled' })).status).toBe(
      200,
    );
    const log = await get(boss.authToken, `admin/audit?searchText=${encodeURIComponent(boss.email)}`);
    expect(log.status).toBe(200);
    expect(
      (log.body.results as Json[]).map((r) => [r.admin, r.action, r.subjectId, r.before, r.after]),
    ).toEqual([
      [boss.email, 'payout-request.approved', payout.id, { state: 'created' }, { state: 'approved' }],
      [
        boss.email,
        'storefront.suspend',
        shop.storefront.id,
        { enabled: true, suspended: false },
        { enabled: false, suspended: true },
      ],
      [boss.email, 'user.unblock', user.id, { status: 'blocked' }, { status: 'active' }],
      [boss.email, 'user.block', user.id, { status: 'active' }, { status: 'blocked' }],
    ]);
    // Only admins read it.
    expect((await get(other.authToken, 'admin/audit')).status).toBe(403);
  });
});
