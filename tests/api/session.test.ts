import { eq } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { REFRESH_GRACE_MS } from '../../server/auth/sessions';
import { users } from '../../server/db/schema';
import { databases, JWT_SECRET, register, useTestApp } from './support/harness';

const key = new TextEncoder().encode(JWT_SECRET);
const sign = (claims: Record<string, unknown>, secret = key) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(secret);

describe.each(databases)('session tokens on %s', (database) => {
  const t = useTestApp(database);
  const me = (token: string) => t.request('GET', '/api/users/me', { token });

  it('answers 401 UNAUTHORIZED without a token', async () => {
    const res = await t.request('GET', '/api/users/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
  });

  it('answers 401 for an Authorization header that is not a bearer token', async () => {
    const { authToken } = await register(t);
    const res = await t.request('GET', '/api/users/me', { headers: { authorization: `Basic ${authToken}` } });
    expect(res.status).toBe(401);
  });

  it('accepts a token until it expires after 15 minutes, then answers 401', async () => {
    const { authToken } = await register(t);
    t.clock.advance(15 * 60_000 - 10_000);
    expect((await me(authToken)).status).toBe(200);
    t.clock.advance(20_000);
    const res = await me(authToken);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  it('answers 401 for a tampered token', async () => {
    const { authToken, id } = await register(t);
    const [header, payload, signature] = authToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url');
    expect((await me(`${header}.${forged}.${signature}`)).status).toBe(401);
    // A changed character inside the signature (its last character carries padding bits a
    // decoder may ignore, so a change there can leave the same bytes).
    const flipped = `${signature!.slice(0, 10)}${signature![10] === 'A' ? 'B' : 'A'}${signature!.slice(11)}`;
    expect((await me(`${header}.${payload}.${flipped}`)).status).toBe(401);
    expect((await me('not-a-jwt')).status).toBe(401);
    expect(claims.userId).toBe(id);
  });

  it('answers 401 for a token signed with another secret or with alg none', async () => {
    const { id, authToken } = await register(t);
    const claims = { userId: id, role: 'creator', tv: 0, sid: decodeJwt(authToken).sid };
    expect(
      (await me(await sign(claims, new TextEncoder().encode('another-secret-another-secret-xx')))).status,
    ).toBe(401);
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    expect((await me(none)).status).toBe(401);
    expect((await me(await sign(claims))).status).toBe(200);
  });

  it('answers 401 for a well-signed token with missing or malformed claims', async () => {
    const { id, authToken } = await register(t);
    const sid = decodeJwt(authToken).sid;
    expect((await me(await sign({ userId: id, role: 'creator', tv: 0 }))).status).toBe(401);
    expect((await me(await sign({ userId: id, role: 'creator', sid }))).status).toBe(401);
    expect((await me(await sign({ userId: id, role: 'creator', tv: 0, sid: 'x' }))).status).toBe(401);
    expect((await me(await sign({ userId: 'x', role: 'creator', tv: 0 }))).status).toBe(401);
    expect((await me(await sign({ userId: id, role: 'king', tv: 0 }))).status).toBe(401);
  });

  it('answers 401 for a token of an unknown user', async () => {
    const token = await sign({ userId: '00000000-0000-4000-8000-000000000000', role: 'creator', tv: 0 });
    expect((await me(token)).status).toBe(401);
  });

  it.each(['blocked', 'removed'] as const)('answers 401 for the token of a %s user', async (status) => {
    const { authToken, id } = await register(t);
    await t.database.db.update(users).set({ status }).where(eq(users.id, id));
    expect((await me(authToken)).status).toBe(401);
  });
});

/** The refresh cookie a response set, as a Cookie header value. */
function refreshCookie(res: { headers: Headers }): string {
  const value = res.headers.get('set-cookie')?.match(/vitrine_session=([^;]*)/)?.[1];
  if (!value) throw new Error('no refresh cookie set');
  return `vitrine_session=${value}`;
}

describe.each(databases)('login sessions on %s', (database) => {
  const t = useTestApp(database);
  const me = (token: string) => t.request('GET', '/api/users/me', { token });
  const refresh = (cookie?: string) =>
    t.request('POST', '/api/auth/sessions/refresh', cookie ? { headers: { cookie } } : {});
  const login = async () => {
    const account = await register(t);
    const res = await t.request('POST', '/api/auth/logins', {
      body: { email: account.email, password: account.password },
    });
    return { ...account, token: res.body.authToken as string, cookie: refreshCookie(res) };
  };

  it('logging out ends the session on the server: the token stops working at once', async () => {
    const { token, cookie } = await login();
    expect((await me(token)).status).toBe(200);
    const out = await t.request('DELETE', '/api/auth/sessions/current', { token });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/vitrine_session=;/);
    expect((await me(token)).status).toBe(401);
    expect((await refresh(cookie)).status).toBe(401);
  });

  it('logging out with an expired token still ends the session through the refresh cookie', async () => {
    const { cookie } = await login();
    t.clock.advance(20 * 60_000);
    const out = await t.request('DELETE', '/api/auth/sessions/current', {
      token: 'expired.or.garbage',
      headers: { cookie },
    });
    expect(out.status).toBe(204);
    expect((await refresh(cookie)).status).toBe(401);
  });

  it('logging out ends only that session', async () => {
    const first = await login();
    const second = await t.request('POST', '/api/auth/logins', {
      body: { email: first.email, password: first.password },
    });
    await t.request('DELETE', '/api/auth/sessions/current', { token: first.token });
    expect((await me(second.body.authToken)).status).toBe(200);
  });

  it('refreshes the session token with the cookie, and replaces the cookie on every use', async () => {
    const { token, cookie, id } = await login();
    t.clock.advance(14 * 60_000);
    const res = await refresh(cookie);
    expect(res.status).toBe(200);
    expect(decodeJwt(res.body.authToken)).toMatchObject({ userId: id, sid: decodeJwt(token).sid });
    const next = refreshCookie(res);
    expect(next).not.toBe(cookie);
    t.clock.advance(10 * 60_000);
    expect((await me(token)).status).toBe(401);
    expect((await me(res.body.authToken)).status).toBe(200);
    expect((await refresh(next)).status).toBe(200);
  });

  it('a replaced refresh token presented late revokes the session (a stolen copy)', async () => {
    const { cookie } = await login();
    const first = await refresh(cookie);
    expect(first.status).toBe(200);
    t.clock.advance(REFRESH_GRACE_MS + 1000);
    expect((await refresh(cookie)).status).toBe(401);
    // The session is over for the rightful holder too.
    expect((await refresh(refreshCookie(first))).status).toBe(401);
    expect((await me(first.body.authToken)).status).toBe(401);
  });

  it('two tabs refreshing at once both get a token', async () => {
    const { cookie } = await login();
    const [a, b] = await Promise.all([refresh(cookie), refresh(cookie)]);
    expect([a.status, b.status]).toEqual([200, 200]);
  });

  it('refuses a refresh without a cookie, with an unknown one, or after the session was idle too long', async () => {
    const { cookie } = await login();
    expect((await refresh()).status).toBe(401);
    expect((await refresh('vitrine_session=nope')).status).toBe(401);
    t.clock.advance(7 * 24 * 3600_000 + 60_000);
    expect((await refresh(cookie)).status).toBe(401);
  });

  it('a blocked user can neither refresh nor use a token', async () => {
    const { cookie, token, id } = await login();
    await t.database.db.update(users).set({ status: 'blocked' }).where(eq(users.id, id));
    expect((await refresh(cookie)).status).toBe(401);
    expect((await me(token)).status).toBe(401);
  });
});
