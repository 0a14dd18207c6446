import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  consumeNonce,
  NONCE_COOKIE,
  NONCE_MAX_PER_ADDRESS,
  NONCE_PRUNE_BATCH,
  NONCE_REUSE_MIN_MS,
  NONCE_TTL_MS,
} from '../../server/auth/wallet-proof';
import { walletNonces } from '../../server/db/schema';
import { databases, flowAddress, randomAddress, register, useTestApp } from './support/harness';

/** Wallet routes without a chain (FLOW_EMULATOR=off); with one: tests/chain/wallets.test.ts. */
describe.each(databases)('wallet connection without a chain on %s', (database) => {
  const t = useTestApp(database);

  it('issues single-use nonces of 32 bytes', async () => {
    const a = await t.request('POST', '/api/users/wallets/actions/request-account-proof');
    const b = await t.request('POST', '/api/users/wallets/actions/request-account-proof');
    expect(a.status).toBe(201);
    expect(a.body.nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(a.body.nonce).not.toBe(b.body.nonce);
  });

  it('has no chain config for the browser (503)', async () => {
    const res = await t.request('GET', '/api/chain/config');
    expect(res.status).toBe(503);
  });

  it('cannot verify a proof and says so with 503', async () => {
    const { body: issued } = await t.request('POST', '/api/users/wallets/actions/request-account-proof');
    const res = await t.request('POST', '/api/users/wallets/actions/verify-account-proof', {
      body: { walletAddress: flowAddress(), keyId: 0, signature: 'ab'.repeat(64), nonce: issued.nonce },
    });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('unavailable');
  });
});

describe.each(databases)('account-proof nonces on %s', (database) => {
  const t = useTestApp(database);
  /** A request from `address`, as a new browser (no cookie) unless `cookie` or `token` is given. */
  const request = (address = t.address, session: { cookie?: string; token?: string } = {}) =>
    t.request('POST', '/api/users/wallets/actions/request-account-proof', {
      headers: { 'x-test-address': address, ...(session.cookie && { cookie: session.cookie }) },
      token: session.token,
    });
  /** A browser's first click: its nonce and the nonce cookie it got. */
  const firstClick = async (address = t.address) => {
    const res = await request(address);
    expect(res.status).toBe(201);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${NONCE_COOKIE}=`))!;
    expect(cookie).toContain('Path=/api/users/wallets/actions');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    return { nonce: res.body.nonce as string, cookie: cookie.split(';')[0]! };
  };

  it(`hands a browser clicking "connect" again and again its outstanding nonce, never a 429`, async () => {
    const { nonce, cookie } = await firstClick();
    for (let i = 0; i < 3 * NONCE_MAX_PER_ADDRESS; i++) {
      const again = await request(t.address, { cookie });
      expect(again.status).toBe(201);
      expect(again.body.nonce).toBe(nonce);
      // The browser keeps its cookie: none is set again.
      expect(again.headers.getSetCookie()).toEqual([]);
    }
    // Another browser (from the same address) gets a nonce of its own.
    const other = await firstClick();
    expect(other.nonce).not.toBe(nonce);
    expect(other.cookie).not.toBe(cookie);
    // Even once other sessions fill the address's cap, the browser still gets its nonce.
    for (let i = 0; i < NONCE_MAX_PER_ADDRESS - 2; i++) expect((await request()).status).toBe(201);
    expect((await request()).status).toBe(429);
    expect((await request(t.address, { cookie })).body.nonce).toBe(nonce);
  });

  it('hands a new nonce once the outstanding one is used or has less than 5 minutes left', async () => {
    const { nonce, cookie } = await firstClick();
    t.clock.advance(NONCE_TTL_MS - NONCE_REUSE_MIN_MS - 1000);
    expect((await request(t.address, { cookie })).body.nonce).toBe(nonce);
    t.clock.advance(2000);
    const fresh = (await request(t.address, { cookie })).body.nonce;
    expect(fresh).not.toBe(nonce);
    expect((await request(t.address, { cookie })).body.nonce).toBe(fresh);
    expect(await consumeNonce(t.database.db, t.clock.now, fresh)).toBe(true);
    const next = (await request(t.address, { cookie })).body.nonce;
    expect([nonce, fresh]).not.toContain(next);
  });

  it('keys a signed-in caller by its session, and replaces a malformed nonce cookie', async () => {
    const me = await register(t);
    const login = await t.request('POST', '/api/auth/logins', {
      body: { email: me.email, password: me.password },
    });
    const first = await request(t.address, { token: me.authToken });
    expect(first.status).toBe(201);
    expect(first.headers.getSetCookie()).toEqual([]);
    expect((await request(randomAddress(), { token: me.authToken })).body.nonce).toBe(first.body.nonce);
    // Another session of the same user is another session.
    const second = await request(t.address, { token: login.body.authToken });
    expect(second.body.nonce).not.toBe(first.body.nonce);
    // A cookie the server did not make names no session: a new one is set.
    const odd = await request(t.address, { cookie: `${NONCE_COOKIE}=x` });
    expect(odd.status).toBe(201);
    expect(odd.headers.getSetCookie()[0]).toMatch(new RegExp(`^${NONCE_COOKIE}=[\\w-]{22};`));
  });

  it(`caps a client address at ${NONCE_MAX_PER_ADDRESS} unused, unexpired nonces of distinct sessions (429 RATE_LIMITED with Retry-After)`, async () => {
    for (let i = 0; i < NONCE_MAX_PER_ADDRESS; i++) expect((await request()).status).toBe(201);
    const refused = await request();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', message: expect.any(String) });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(NONCE_TTL_MS / 1000);
    // Other addresses are not affected.
    expect((await request(randomAddress())).status).toBe(201);
    // A used nonce no longer counts.
    const [one] = await t.database.db
      .select()
      .from(walletNonces)
      .where(eq(walletNonces.address, t.address))
      .limit(1);
    expect(await consumeNonce(t.database.db, t.clock.now, one!.nonce)).toBe(true);
    expect((await request()).status).toBe(201);
    expect((await request()).status).toBe(429);
    // Once the oldest ones expire, the address may ask again.
    t.clock.advance(NONCE_TTL_MS + 1000);
    expect((await request()).status).toBe(201);
  });

  it('holds the cap under concurrent requests of distinct sessions from one address', async () => {
    const address = randomAddress();
    const answers = await Promise.all(
      Array.from({ length: NONCE_MAX_PER_ADDRESS + 10 }, () => request(address)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(NONCE_MAX_PER_ADDRESS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const stored = await t.database.db
      .select({ n: count() })
      .from(walletNonces)
      .where(eq(walletNonces.address, address));
    expect(stored[0]!.n).toBe(NONCE_MAX_PER_ADDRESS);
  });
});

describe.each(databases)('account-proof nonce pruning on %s', (database) => {
  const t = useTestApp(database);
  const request = () => t.request('POST', '/api/users/wallets/actions/request-account-proof');
  const rows = async () => (await t.database.db.select({ n: count() }).from(walletNonces))[0]!.n;

  it('stores the client address, and deletes used and expired nonces as it issues new ones', async () => {
    const a = await request();
    expect(await rows()).toBe(1);
    const [row] = await t.database.db.select().from(walletNonces);
    expect(row).toMatchObject({ nonce: a.body.nonce, address: t.address, usedAt: null });
    await request();
    expect(await rows()).toBe(2);

    // A used nonce goes with the next issue, and stays unusable.
    expect(await consumeNonce(t.database.db, t.clock.now, a.body.nonce)).toBe(true);
    await request();
    expect(await rows()).toBe(2);
    expect(await consumeNonce(t.database.db, t.clock.now, a.body.nonce)).toBe(false);

    // Expired ones too, at most NONCE_PRUNE_BATCH per issue.
    const past = new Date(t.clock.now().getTime() - 1);
    await t.database.db.insert(walletNonces).values(
      Array.from({ length: NONCE_PRUNE_BATCH + 10 }, (_, i) => ({
        nonce: `expired-${i}`,
        address: t.address,
        createdAt: new Date(past.getTime() - NONCE_TTL_MS),
        expiresAt: past,
      })),
    );
    expect(await rows()).toBe(2 + NONCE_PRUNE_BATCH + 10);
    await request();
    expect(await rows()).toBe(2 + 10 + 1);
    await request();
    expect(await rows()).toBe(4);

    // Past the time to live, every earlier nonce is gone with the next issue.
    t.clock.advance(NONCE_TTL_MS + 1000);
    const last = await request();
    expect(last.status).toBe(201);
    const left = await t.database.db.select().from(walletNonces);
    expect(left.map((r) => r.nonce)).toEqual([last.body.nonce]);
  });
});
