import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { kycVerifications, users } from '../../server/db/schema';
import { databases, flowAddress, provenWallet, register, useTestApp } from './support/harness';

const USER_KEYS = [
  'avatarUrl',
  'collectorScore',
  'createdAt',
  'email',
  'ethAddress',
  'favoriteEmails',
  'firstName',
  'id',
  'identiconAvatar',
  'kyc',
  'lastName',
  'level',
  'nfts',
  'role',
  'saleEmails',
  'status',
  'username',
  'viewedCollectorScore',
  'wallet',
  'walletAddress',
];
const KYC_KEYS = [
  'code',
  'firstName',
  'id',
  'lastName',
  'reason',
  'reasonCode',
  'sessionId',
  'status',
  'updatedAt',
  'url',
];

describe.each(databases)('users on %s', (database) => {
  const t = useTestApp(database);

  describe('GET /api/users/{id}', () => {
    it('has exactly the fields of the API user and no password hash', async () => {
      const { id, authToken } = await register(t);
      const res = await t.request('GET', `/api/users/${id}`, { token: authToken });
      expect(res.status).toBe(200);
      // The user's own preferences (saleEmails, favoriteEmails) only to the user.
      expect(Object.keys(res.body).sort()).toEqual(USER_KEYS);
      expect(Object.keys(res.body.kyc).sort()).toEqual(KYC_KEYS);
      const other = await register(t);
      const seen = await t.request('GET', `/api/users/${id}`, { token: other.authToken });
      // Identity verification only to the user and admins (tests/api/authorization.test.ts walks every route).
      expect(Object.keys(seen.body).sort()).toEqual(
        USER_KEYS.filter((k) => k !== 'saleEmails' && k !== 'favoriteEmails' && k !== 'kyc'),
      );
      expect(JSON.stringify(res.body)).not.toMatch(/argon2|password/i);
      expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    });

    it('shows the email to the user only: null for anonymous visitors and for other users', async () => {
      const alice = await register(t);
      const bob = await register(t);
      expect((await t.request('GET', `/api/users/${alice.id}`, { token: alice.authToken })).body.email).toBe(
        alice.email,
      );
      const anonymous = await t.request('GET', `/api/users/${alice.id}`);
      expect(anonymous.status).toBe(200);
      expect(anonymous.body).toMatchObject({ email: null, username: alice.username });
      expect(
        (await t.request('GET', `/api/users/${alice.id}`, { token: bob.authToken })).body.email,
      ).toBeNull();
    });

    it('shows the email to an admin', async () => {
      const alice = await register(t);
      const admin = await register(t);
      await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.id));
      const res = await t.request('GET', `/api/users/${alice.id}`, { token: admin.authToken });
      expect(res.body.email).toBe(alice.email);
    });

    it('includes the KYC session when there is one', async () => {
      const { id, authToken } = await register(t);
      const updatedAt = new Date('2026-01-02T03:04:05.000Z');
      await t.database.db.insert(kycVerifications).values({
        userId: id,
        sessionId: 's-1',
        url: 'https://kyc.example/s-1',
        status: 'created',
        updatedAt,
      });
      const res = await t.request('GET', '/api/users/me', { token: authToken });
      expect(res.body.kyc).toMatchObject({
        id: expect.any(String),
        sessionId: 's-1',
        url: 'https://kyc.example/s-1',
        status: 'created',
        updatedAt: updatedAt.toISOString(),
      });
    });

    it('answers 404 not_found for an unknown id and for an id that is not a uuid', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'nobody', '1']) {
        const res = await t.request('GET', `/api/users/${id}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: 'not_found', message: "We couldn't find what you're looking for" });
      }
    });

    it('answers 401 for an invalid token even on this public route', async () => {
      const { id } = await register(t);
      expect((await t.request('GET', `/api/users/${id}`, { token: 'stale' })).status).toBe(401);
    });
  });

  describe('GET /api/queries/user-existence', () => {
    const exists = (query: string) => t.request('GET', `/api/queries/user-existence?${query}`);

    it('tells whether an email has an account, in any case', async () => {
      const { email } = await register(t);
      expect((await exists(`email=${encodeURIComponent(email.toUpperCase())}`)).body).toEqual({
        exists: true,
      });
      expect((await exists('email=nobody%40example.com')).body).toEqual({ exists: false });
    });

    it('tells whether a wallet address has an account', async () => {
      const wallet = await provenWallet(t);
      await register(t, { ...wallet, cid: 'c' });
      expect((await exists(`walletAddress=${wallet.walletAddress}`)).body).toEqual({ exists: true });
      expect((await exists(`walletAddress=${flowAddress()}`)).body).toEqual({ exists: false });
    });

    it('answers 400 without email or wallet address, or with invalid ones', async () => {
      expect((await exists('')).body).toMatchObject({ code: 'EMAIL_MISSING', field: 'email' });
      expect((await exists('email=nope')).body).toMatchObject({ code: 'INVALID_VALUE', field: 'email' });
      const res = await exists('walletAddress=0x12');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_VALUE', field: 'walletAddress' });
    });
  });
});
