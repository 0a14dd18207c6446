import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { DEVICE_COOKIE, DEVICE_TTL_SECONDS } from '../../server/auth/devices';
import {
  ACCOUNT_FREE_FAILURES,
  ACCOUNT_MAX_DELAY_MS,
  ADDRESS_FREE_ACCOUNTS,
  ADDRESS_PACE_MS,
  accountDelayMs,
  DEVICE_MAX_FAILURES,
  FORGET_MS,
  PRUNE_BATCH,
} from '../../server/auth/login-limit';
import { loginThrottles, users } from '../../server/db/schema';
import { databases, register, type TestResponse, useTestApp } from './support/harness';

const PATH = '/api/auth/logins';

/** The `name=value` of a cookie the response sets. */
function setCookie(res: TestResponse, name: string): string | undefined {
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];
}

describe.each(databases)('POST /api/auth/logins on %s', (database) => {
  const t = useTestApp(database);
  /** A login from `address` (else t.address), sending `cookie` (a device cookie) if given. */
  const login = (email: string, password: string, from: { address?: string; cookie?: string } = {}) =>
    t.request('POST', PATH, {
      body: { email, password },
      headers: {
        ...(from.address && { 'x-test-address': from.address }),
        ...(from.cookie && { cookie: from.cookie }),
      },
    });
  /** Signs in as the owner and answers the device cookie the browser got. */
  const deviceOf = async (email: string, password: string) => {
    const res = await login(email, password, { address: '192.0.2.250' });
    expect(res.status).toBe(200);
    return setCookie(res, DEVICE_COOKIE)!;
  };

  it('answers a 15-minute token carrying userId, role and its session, and sets the refresh and device cookies', async () => {
    const { email, password, id } = await register(t);
    const res = await login(email.toUpperCase(), password);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['authToken']);
    const claims = decodeJwt(res.body.authToken);
    expect(claims).toMatchObject({ userId: id, role: 'creator', sid: expect.any(String) });
    expect(claims.exp! - claims.iat!).toBe(15 * 60);
    const [session, device] = res.headers.getSetCookie();
    expect(session).toMatch(/^vitrine_session=[\w-]+;/);
    expect(session).toContain('Path=/api/auth/sessions');
    expect(session).toContain('HttpOnly');
    expect(session).toContain('SameSite=Strict');
    // The device cookie: a signed token naming the user and a device id, sent only to the login route.
    expect(device).toMatch(/^vitrine_device=[\w-]+\.[\w-]+\.[\w-]+;/);
    expect(device).toContain(`Max-Age=${DEVICE_TTL_SECONDS}`);
    expect(device).toContain('Path=/api/auth/logins');
    expect(device).toContain('HttpOnly');
    expect(device).toContain('SameSite=Strict');
    expect(device).not.toContain('Secure');
    const deviceClaims = decodeJwt(device!.split(/[=;]/)[1]!);
    expect(deviceClaims).toMatchObject({
      purpose: 'device',
      sub: id,
      jti: expect.stringMatching(/^[\w-]{22}$/),
    });
    expect(deviceClaims.exp! - deviceClaims.iat!).toBe(DEVICE_TTL_SECONDS);
    const me = await t.request('GET', '/api/users/me', { token: res.body.authToken });
    expect(me.body.email).toBe(email);
  });

  it('answers 401 "Invalid email or password" for a wrong password', async () => {
    const { email } = await register(t);
    const res = await login(email, 'wrong password');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: 'Invalid email or password' });
  });

  it('answers an unknown email exactly like a wrong password', async () => {
    const res = await login('nobody@example.com', 'some password');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: 'Invalid email or password' });
  });

  const invalid: [string, Record<string, unknown>, { code: string; field: string }][] = [
    ['no email', { password: 'x' }, { code: 'EMAIL_MISSING', field: 'email' }],
    ['an invalid email', { email: 'nope', password: 'x' }, { code: 'INVALID_VALUE', field: 'email' }],
    ['no password', { email: 'a@b.co' }, { code: 'PASSWORD_MISSING', field: 'password' }],
    ['an empty password', { email: 'a@b.co', password: '' }, { code: 'PASSWORD_MISSING', field: 'password' }],
    [
      'a number as password',
      { email: 'a@b.co', password: 12345678 },
      { code: 'PASSWORD_MISSING', field: 'password' },
    ],
  ];
  it.each(invalid)('refuses %s with 400', async (_, body, error) => {
    const res = await t.request('POST', PATH, { body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(error);
  });

  it.each(['blocked', 'removed'] as const)('refuses a %s user with 403 Restricted area', async (status) => {
    const { email, password, id } = await register(t);
    await t.database.db.update(users).set({ status }).where(eq(users.id, id));
    const res = await login(email, password);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'FORBIDDEN', message: 'Restricted area' });
  });

  it('answers a wrong password of a blocked user with 401, not revealing the block', async () => {
    const { email, id } = await register(t);
    await t.database.db.update(users).set({ status: 'blocked' }).where(eq(users.id, id));
    expect((await login(email, 'wrong password')).status).toBe(401);
  });

  describe('throttle of untrusted clients (no device cookie of the account)', () => {
    it('never locks the owner out: after 10 wrong passwords from strangers, the right one works once the delay has passed', async () => {
      const { email, password } = await register(t);
      for (let i = 0; i < 10; i++) {
        const res = await login(email, 'wrong password', { address: `192.0.2.${i}` });
        expect([401, 429]).toContain(res.status);
        // A stranger who waits as told gets to try again, and so keeps failing.
        t.clock.advance(ACCOUNT_MAX_DELAY_MS);
      }
      expect((await login(email, password, { address: '192.0.2.200' })).status).toBe(200);
    });

    it('makes an account wait longer after each failure past the free ones, up to the cap', async () => {
      const { email, password } = await register(t);
      for (let i = 1; i <= ACCOUNT_FREE_FAILURES; i++) {
        expect((await login(email, 'wrong password', { address: `192.0.2.${i}` })).status).toBe(401);
      }
      const early = await login(email, password, { address: '192.0.2.100' });
      expect(early.status).toBe(429);
      expect(Number(early.headers.get('retry-after'))).toBe(accountDelayMs(ACCOUNT_FREE_FAILURES) / 1000);
      t.clock.advance(accountDelayMs(ACCOUNT_FREE_FAILURES));
      expect((await login(email, password, { address: '192.0.2.100' })).status).toBe(200);
      expect(accountDelayMs(ACCOUNT_FREE_FAILURES + 1)).toBe(2000);
      expect(accountDelayMs(100)).toBe(ACCOUNT_MAX_DELAY_MS);
    });

    it('forgets an account’s failures after a quiet period', async () => {
      const { email, password } = await register(t);
      for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) {
        await login(email, 'wrong password', { address: `192.0.2.${i}` });
      }
      t.clock.advance(FORGET_MS + 1000);
      await login(email, 'wrong password', { address: '192.0.2.100' });
      expect((await login(email, password, { address: '192.0.2.100' })).status).toBe(200);
    });

    it("forgives an account's failures after a successful login", async () => {
      const { email, password } = await register(t);
      for (let i = 0; i < ACCOUNT_FREE_FAILURES - 1; i++) await login(email, 'wrong password');
      expect((await login(email, password)).status).toBe(200);
      for (let i = 0; i < ACCOUNT_FREE_FAILURES - 1; i++) await login(email, 'wrong password');
      for (let i = 0; i < 5; i++) expect((await login(email, password)).status).toBe(200);
    });

    it('counts a burst against one account atomically, from many addresses', async () => {
      const { email } = await register(t);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => login(email, 'wrong password', { address: `203.0.113.${i}` })),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(ACCOUNT_FREE_FAILURES);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20 - ACCOUNT_FREE_FAILURES);
    });

    it('lets another account sign in at once from an address that just failed 10 times against one account', async () => {
      const x = await register(t);
      const y = await register(t);
      for (let i = 0; i < 10; i++) {
        expect([401, 429]).toContain((await login(x.email, 'wrong password')).status);
      }
      expect((await login(y.email, y.password)).status).toBe(200);
    });

    it(`paces a stuffing run to one guess per second once the address has failed against ${ADDRESS_FREE_ACCOUNTS} accounts, and never locks it out`, async () => {
      t.clock.freeze();
      const victims = Array.from({ length: 50 }, (_, i) => `stuffed${i}-${t.address}@example.com`);
      for (const email of victims.slice(0, ADDRESS_FREE_ACCOUNTS)) {
        expect((await login(email, 'password123')).status).toBe(401);
      }
      // The run goes on, one try every 100 ms for 30 s, each admitted guess on the next account.
      let next = ADDRESS_FREE_ACCOUNTS;
      let through = 0;
      for (let step = 1; step <= 300; step++) {
        t.clock.advance(100);
        const res = await login(victims[next]!, 'password123');
        if (res.status === 401) {
          through++;
          next++;
        } else {
          expect(res.status).toBe(429);
          expect(res.body.code).toBe('RATE_LIMITED');
          expect(res.headers.get('retry-after')).toBe('1');
        }
      }
      expect(through).toBe(30);
      expect(next).toBe(victims.length);

      // A user of the same address without a device cookie waits at most a second, never longer.
      const y = await register(t);
      const paced = await login(y.email, y.password);
      expect(paced.status).toBe(429);
      expect(paced.headers.get('retry-after')).toBe(String(ADDRESS_PACE_MS / 1000));
      t.clock.advance(ADDRESS_PACE_MS);
      expect((await login(y.email, y.password)).status).toBe(200);
      // Once the run has been quiet for FORGET_MS, the address is no longer paced.
      t.clock.advance(FORGET_MS);
      for (let i = 0; i < 3; i++)
        expect((await login(`quiet${i}-${t.address}@example.com`, 'x')).status).toBe(401);
    });

    it('counts a burst from a paced address atomically: of 20 concurrent guesses on new accounts one is checked', async () => {
      for (let i = 0; i < ADDRESS_FREE_ACCOUNTS; i++) {
        expect((await login(`first${i}-${t.address}@example.com`, 'wrong password')).status).toBe(401);
      }
      t.clock.advance(ADDRESS_PACE_MS);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => login(`burst${i}-${t.address}@example.com`, 'wrong password')),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(1);
      expect(statuses.filter((s) => s === 429)).toHaveLength(19);
    });

    it('counts one account once against its address: a user retyping a password does not pace the address', async () => {
      const { email, password } = await register(t);
      for (let i = 0; i < 3 * ADDRESS_FREE_ACCOUNTS; i++) {
        await login(email, 'wrong password');
        t.clock.advance(ACCOUNT_MAX_DELAY_MS);
      }
      for (let i = 0; i < ADDRESS_FREE_ACCOUNTS - 1; i++) {
        expect((await login(`other${i}-${t.address}@example.com`, 'wrong password')).status).toBe(401);
      }
      expect((await login(email, password)).status).toBe(200);
    });

    it('prunes forgotten counts as attempts come in', async () => {
      const { db } = t.database;
      const old = new Date(t.clock.now().getTime() - FORGET_MS - 1000);
      await db.insert(loginThrottles).values(
        Array.from({ length: PRUNE_BATCH + 5 }, (_, i) => ({
          key: `pair:203.0.113.99 old${i}@example.com`,
          failures: 1,
          nextAllowedAt: old,
          updatedAt: old,
        })),
      );
      const left = async () =>
        (await db.select({ key: loginThrottles.key }).from(loginThrottles)).filter((r) =>
          r.key.startsWith('pair:203.0.113.99 old'),
        ).length;
      await login('someone@example.com', 'wrong password');
      expect(await left()).toBeLessThanOrEqual(5);
      await login('someone@example.com', 'wrong password');
      expect(await left()).toBe(0);
    });
  });

  describe('device cookie', () => {
    /** The attacker's addresses: several, so no one address is paced. */
    const attackers = ['203.0.113.1', '203.0.113.2', '203.0.113.3'];

    it('lets the owner in at the first try while an attacker races every slot of the account for 2 minutes', async () => {
      const { email, password } = await register(t);
      const device = await deviceOf(email, password);
      t.clock.freeze();
      const end = t.clock.now().getTime() + 120_000;
      let guesses = 0;
      let refusals = 0;
      let last: TestResponse | undefined;
      // The attacker retries the moment each wait ends, and stops right after taking a slot.
      while (t.clock.now().getTime() < end || last?.status !== 401) {
        last = await login(email, 'wrong password', { address: attackers[(guesses + refusals) % 3] });
        if (last.status === 401) guesses++;
        else {
          expect(last.status).toBe(429);
          refusals++;
          t.clock.advance(Number(last.headers.get('retry-after')) * 1000);
        }
      }
      expect(guesses).toBe(ACCOUNT_FREE_FAILURES + 8);
      // A browser without the device cookie would have to wait now…
      expect((await login(email, password, { address: '198.51.100.7' })).status).toBe(429);
      // …the owner's browser signs in at once, from any address.
      const owner = await login(email, password, { address: '198.51.100.7', cookie: device });
      expect(owner.status).toBe(200);
      expect(setCookie(owner, DEVICE_COOKIE)).toBeDefined();
    });

    it('is exempt from the address pace for its account', async () => {
      const { email, password } = await register(t);
      const device = await deviceOf(email, password);
      for (let i = 0; i < ADDRESS_FREE_ACCOUNTS + 1; i++) {
        await login(`stuffed${i}-${t.address}@example.com`, 'wrong password');
      }
      expect((await login(email, password)).status).toBe(429);
      expect((await login(email, password, { cookie: device })).status).toBe(200);
    });

    it(`counts a device's own failures: after ${DEVICE_MAX_FAILURES} the cookie is ignored, so a stolen one buys no more guesses`, async () => {
      const { email, password } = await register(t);
      const device = await deviceOf(email, password);
      // The owner's own typos are forgiven by a success.
      for (let i = 0; i < DEVICE_MAX_FAILURES - 1; i++) {
        expect((await login(email, 'wrong password', { cookie: device })).status).toBe(401);
      }
      expect((await login(email, password, { cookie: device })).status).toBe(200);
      // A thief guesses: the device's failures cost no waiting…
      for (let i = 0; i < DEVICE_MAX_FAILURES; i++) {
        expect((await login(email, 'wrong password', { cookie: device })).status).toBe(401);
      }
      // …until it is locked out and held to the account's rules like any untrusted client.
      for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) {
        expect((await login(email, 'wrong password', { cookie: device })).status).toBe(401);
      }
      expect((await login(email, 'wrong password', { cookie: device })).status).toBe(429);
      expect((await login(email, password, { cookie: device })).status).toBe(429);
      // A device's failures are forgotten after a quiet period, and the cookie works again.
      t.clock.advance(FORGET_MS + 1000);
      for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) {
        await login(email, 'wrong password', { address: attackers[i % 3] });
      }
      expect((await login(email, password, { cookie: device })).status).toBe(200);
    });

    it('helps only its own account, and not once forged or after a password change or reset', async () => {
      const x = await register(t);
      const y = await register(t);
      const deviceOfX = await deviceOf(x.email, x.password);
      const block = async (email: string) => {
        for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++)
          await login(email, 'wrong password', { address: attackers[i % 3] });
      };
      await block(y.email);
      expect((await login(y.email, y.password, { cookie: deviceOfX })).status).toBe(429);

      await block(x.email);
      const at = deviceOfX.lastIndexOf('.') + 6;
      const forged = `${deviceOfX.slice(0, at)}${deviceOfX[at] === 'A' ? 'B' : 'A'}${deviceOfX.slice(at + 1)}`;
      expect((await login(x.email, x.password, { cookie: forged })).status).toBe(429);
      expect((await login(x.email, x.password, { cookie: deviceOfX })).status).toBe(200);

      // A password change or reset (a new token version) voids the cookies the account gave out.
      await t.database.db.update(users).set({ tokenVersion: 7 }).where(eq(users.email, x.email));
      await block(x.email);
      expect((await login(x.email, x.password, { cookie: deviceOfX })).status).toBe(429);
    });
  });
});
