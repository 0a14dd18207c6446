import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_MAX_ATTEMPTS,
  ADDRESS_WINDOW_MS,
  EMAIL_FORGET_MS,
  EMAIL_FREE_FAILURES,
  EMAIL_MAX_DELAY_MS,
  emailDelayMs,
} from '../../server/auth/login-limit';
import { users } from '../../server/db/schema';
import { databases, register, useTestApp } from './support/harness';

const PATH = '/api/auth/logins';

describe.each(databases)('POST /api/auth/logins on %s', (database) => {
  const t = useTestApp(database);
  const login = (email: string, password: string) => t.request('POST', PATH, { body: { email, password } });

  it('answers a 15-minute token carrying userId, role and its session, and sets the refresh cookie', async () => {
    const { email, password, id } = await register(t);
    const res = await login(email.toUpperCase(), password);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['authToken']);
    const claims = decodeJwt(res.body.authToken);
    expect(claims).toMatchObject({ userId: id, role: 'creator', sid: expect.any(String) });
    expect(claims.exp! - claims.iat!).toBe(15 * 60);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^vitrine_session=[\w-]+;/);
    expect(cookie).toContain('Path=/api/auth/sessions');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
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

  describe('throttle', () => {
    it(`answers 429 after ${ADDRESS_MAX_ATTEMPTS} failures from one address, for any email, until the window ends`, async () => {
      const { email, password } = await register(t);
      for (let i = 0; i < ADDRESS_MAX_ATTEMPTS; i++) {
        expect((await login(`guess${i}@example.com`, 'wrong password')).status).toBe(401);
      }
      const res = await login(email, password);
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('Too many') });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(ADDRESS_WINDOW_MS / 1000 - 5);
      t.clock.advance(ADDRESS_WINDOW_MS + 1000);
      expect((await login(email, password)).status).toBe(200);
    });

    it('never locks the owner out: after 10 wrong passwords from strangers, the right one works once the delay has passed', async () => {
      const { email, password } = await register(t);
      for (let i = 0; i < 10; i++) {
        t.address = `192.0.2.${i}`;
        const res = await login(email, 'wrong password');
        expect([401, 429]).toContain(res.status);
        // A stranger who waits as told gets to try again, and so keeps failing.
        t.clock.advance(EMAIL_MAX_DELAY_MS);
      }
      t.address = '192.0.2.200';
      expect((await login(email, password)).status).toBe(200);
    });

    it('makes an account wait longer after each failure past the free ones, up to the cap', async () => {
      const { email, password } = await register(t);
      for (let i = 1; i <= EMAIL_FREE_FAILURES; i++) {
        t.address = `192.0.2.${i}`;
        expect((await login(email, 'wrong password')).status).toBe(401);
      }
      t.address = '192.0.2.100';
      const early = await login(email, password);
      expect(early.status).toBe(429);
      expect(Number(early.headers.get('retry-after'))).toBe(emailDelayMs(EMAIL_FREE_FAILURES) / 1000);
      t.clock.advance(emailDelayMs(EMAIL_FREE_FAILURES));
      expect((await login(email, password)).status).toBe(200);
      expect(emailDelayMs(EMAIL_FREE_FAILURES + 1)).toBe(2000);
      expect(emailDelayMs(100)).toBe(EMAIL_MAX_DELAY_MS);
    });

    it('forgets an account’s failures after a quiet period', async () => {
      const { email, password } = await register(t);
      for (let i = 0; i < EMAIL_FREE_FAILURES; i++) {
        t.address = `192.0.2.${i}`;
        await login(email, 'wrong password');
      }
      t.clock.advance(EMAIL_FORGET_MS + 1000);
      t.address = '192.0.2.100';
      await login(email, 'wrong password');
      expect((await login(email, password)).status).toBe(200);
    });

    it("forgives an account's failures after a successful login, and a success does not count against the address", async () => {
      const { email, password } = await register(t);
      for (let i = 0; i < EMAIL_FREE_FAILURES - 1; i++) await login(email, 'wrong password');
      expect((await login(email, password)).status).toBe(200);
      for (let i = 0; i < EMAIL_FREE_FAILURES - 1; i++) await login(email, 'wrong password');
      for (let i = 0; i < 5; i++) expect((await login(email, password)).status).toBe(200);
    });

    it('counts a burst atomically: of 20 concurrent wrong passwords from one address only 10 are checked', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => login(`burst${i}@example.com`, 'wrong password')),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 401)).toHaveLength(ADDRESS_MAX_ATTEMPTS);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20 - ADDRESS_MAX_ATTEMPTS);
    });

    it('counts a burst against one account atomically, from many addresses', async () => {
      const { email } = await register(t);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const body = { email, password: 'wrong password' };
          const headers = { 'content-type': 'application/json', 'x-test-address': `203.0.113.${i}` };
          return Promise.resolve(
            t.app.request(PATH, { method: 'POST', headers, body: JSON.stringify(body) }),
          ).then((r: Response) => r.status);
        }),
      );
      expect(results.filter((s: number) => s === 401)).toHaveLength(EMAIL_FREE_FAILURES);
      expect(results.filter((s: number) => s === 429)).toHaveLength(20 - EMAIL_FREE_FAILURES);
    });
  });
});
