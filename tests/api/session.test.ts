import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
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

  it('accepts a token until it expires after 7 days, then answers 401', async () => {
    const { authToken } = await register(t);
    t.clock.advance(7 * 24 * 3600_000 - 60_000);
    expect((await me(authToken)).status).toBe(200);
    t.clock.advance(2 * 60_000);
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
    expect((await me(`${authToken.slice(0, -2)}xx`)).status).toBe(401);
    expect((await me('not-a-jwt')).status).toBe(401);
    expect(claims.userId).toBe(id);
  });

  it('answers 401 for a token signed with another secret or with alg none', async () => {
    const { id } = await register(t);
    const claims = { userId: id, role: 'creator', tv: 0 };
    expect(
      (await me(await sign(claims, new TextEncoder().encode('another-secret-another-secret-xx')))).status,
    ).toBe(401);
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    expect((await me(none)).status).toBe(401);
    expect((await me(await sign(claims))).status).toBe(200);
  });

  it('answers 401 for a well-signed token with missing or malformed claims', async () => {
    const { id } = await register(t);
    expect((await me(await sign({ userId: id, role: 'creator' }))).status).toBe(401);
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
