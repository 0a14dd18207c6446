import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS } from '../../server/auth/login-limit';
import { users } from '../../server/db/schema';
import { databases, register, useTestApp } from './support/harness';

const PATH = '/api/auth/logins';

describe.each(databases)('POST /api/auth/logins on %s', (database) => {
  const t = useTestApp(database);
  const login = (email: string, password: string) => t.request('POST', PATH, { body: { email, password } });

  it('answers a token carrying userId, role and a 7-day exp', async () => {
    const { email, password, id } = await register(t);
    const res = await login(email.toUpperCase(), password);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['authToken']);
    const claims = decodeJwt(res.body.authToken);
    expect(claims).toMatchObject({ userId: id, role: 'creator' });
    expect(claims.exp! - claims.iat!).toBe(7 * 24 * 3600);
    expect(Math.abs(claims.exp! * 1000 - (t.clock.now().getTime() + 7 * 24 * 3600_000))).toBeLessThan(2000);
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

  describe('rate limit', () => {
    it(`answers 429 RATE_LIMITED after ${LOGIN_MAX_FAILURES} failures for one email, even from other addresses`, async () => {
      const { email, password } = await register(t);
      for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
        t.address = `192.0.2.${i}`;
        expect((await login(email, 'wrong password')).status).toBe(401);
      }
      t.address = '192.0.2.200';
      const res = await login(email, password);
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('Too many') });
      expect(res.headers.get('retry-after')).toBe(String(LOGIN_WINDOW_MS / 1000));
    });

    it(`answers 429 after ${LOGIN_MAX_FAILURES} failures from one address, for any email`, async () => {
      const { email, password } = await register(t);
      for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
        expect((await login(`guess${i}@example.com`, 'wrong password')).status).toBe(401);
      }
      expect((await login(email, password)).status).toBe(429);
    });

    it('lets the email log in again once the window has passed', async () => {
      const { email, password } = await register(t);
      for (let i = 0; i < LOGIN_MAX_FAILURES; i++) await login(email, 'wrong password');
      expect((await login(email, password)).status).toBe(429);
      t.clock.advance(LOGIN_WINDOW_MS + 1000);
      expect((await login(email, password)).status).toBe(200);
    });

    it('counts only failures in the window: nine old ones and one new one do not block', async () => {
      const { email, password } = await register(t);
      for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) await login(email, 'wrong password');
      t.clock.advance(LOGIN_WINDOW_MS / 2);
      await login(email, 'wrong password');
      t.clock.advance(LOGIN_WINDOW_MS / 2 + 1000);
      expect((await login(email, password)).status).toBe(200);
    });

    it("forgives an email's failures after a successful login", async () => {
      const { email, password } = await register(t);
      for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) {
        t.address = `192.0.2.${i}`;
        await login(email, 'wrong password');
      }
      t.address = '192.0.2.100';
      expect((await login(email, password)).status).toBe(200);
      await login(email, 'wrong password');
      expect((await login(email, password)).status).toBe(200);
    });
  });
});
