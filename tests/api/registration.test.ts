import { describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { databases, flowAddress, newAccount, provenWallet, register, useTestApp } from './support/harness';

const PATH = '/api/users/registrations';

describe.each(databases)('POST /api/users/registrations on %s', (database) => {
  const t = useTestApp(database);

  it('creates an active creator at level 1 and answers 201 with a token and the user', async () => {
    const account = newAccount({
      email: 'New.Person@Example.COM',
      ...(await provenWallet(t)),
      cid: 'cid-1',
    });
    const res = await t.request('POST', PATH, { body: account });
    expect(res.status).toBe(201);
    expect(res.body.authToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.body.user).toMatchObject({
      email: 'new.person@example.com',
      username: account.username,
      firstName: 'Ada',
      lastName: 'Lovelace',
      walletAddress: account.walletAddress,
      wallet: { walletAddress: account.walletAddress },
      role: 'creator',
      status: 'active',
      level: 1,
      collectorScore: 0,
      viewedCollectorScore: 0,
      avatarUrl: null,
      identiconAvatar: null,
      kyc: { status: 'unknown', url: null },
    });
    const me = await t.request('GET', '/api/users/me', { token: res.body.authToken });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(res.body.user.id);
  });

  it('stores an argon2id hash, never the password', async () => {
    const { email, password } = await register(t);
    const rows = await t.database.db.select().from(users);
    const row = rows.find((r) => r.email === email)!;
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordHash).not.toContain(password);
  });

  it('registers without a wallet and with an empty last name', async () => {
    const { lastName: _, ...account } = newAccount();
    const res = await t.request('POST', PATH, { body: account });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ walletAddress: null, lastName: '' });
  });

  /** A length rule's answer names its limits (params minLength / maxLength). */
  const invalid: [
    string,
    Record<string, unknown>,
    { code: string; field?: string; params?: Record<string, number> },
  ][] = [
    ['no email', { email: undefined }, { code: 'EMAIL_MISSING', field: 'email' }],
    ['an empty email', { email: '  ' }, { code: 'EMAIL_MISSING', field: 'email' }],
    ['an email without @', { email: 'not-an-email' }, { code: 'INVALID_VALUE', field: 'email' }],
    [
      'an email over 100 characters',
      { email: `${'a'.repeat(95)}@ex.com` },
      { code: 'INVALID_VALUE', field: 'email', params: { minLength: 3, maxLength: 100 } },
    ],
    ['no password', { password: undefined }, { code: 'PASSWORD_MISSING', field: 'password' }],
    ['an empty password', { password: '' }, { code: 'PASSWORD_MISSING', field: 'password' }],
    ['a 7-character password', { password: 'short12' }, { code: 'INVALID_VALUE', field: 'password' }],
    ['no username', { username: undefined }, { code: 'USERNAME_MISSING', field: 'username' }],
    ['an empty username', { username: '' }, { code: 'USERNAME_MISSING', field: 'username' }],
    ['a 2-letter username', { username: 'ab' }, { code: 'INVALID_VALUE', field: 'username' }],
    ['a username with digits', { username: 'abc123' }, { code: 'INVALID_VALUE', field: 'username' }],
    ['no first name', { firstName: undefined }, { code: 'FIRSTNAME_MISSING', field: 'firstName' }],
    ['a 2-letter first name', { firstName: 'Al' }, { code: 'INVALID_VALUE', field: 'firstName' }],
    ['a first name with digits', { firstName: 'Ada2' }, { code: 'INVALID_VALUE', field: 'firstName' }],
    [
      'a last name over 100 characters',
      { lastName: 'x'.repeat(101) },
      { code: 'INVALID_VALUE', field: 'lastName', params: { maxLength: 100 } },
    ],
    [
      'a malformed wallet address',
      { walletAddress: '0x123', cid: 'c' },
      { code: 'INVALID_VALUE', field: 'walletAddress' },
    ],
    ['a wallet address without cid', { walletAddress: flowAddress() }, { code: 'BLOCTO_EMAIL' }],
    ['a cid without wallet address', { cid: 'cid' }, { code: 'BLOCTO_EMAIL' }],
    ['the admin role', { role: 'admin' }, { code: 'INVALID_VALUE', field: 'role' }],
    ['a number as cid', { walletAddress: flowAddress(), cid: 5 }, { code: 'INVALID_VALUE', field: 'cid' }],
  ];
  it.each(invalid)('refuses %s', async (_, overrides, error) => {
    const res = await t.request('POST', PATH, { body: newAccount(overrides) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ ...error, message: expect.any(String) });
    expect(res.body.message).not.toBe('');
  });

  it('says "{n} Characters" for a short password', async () => {
    const res = await t.request('POST', PATH, { body: newAccount({ password: 'short' }) });
    expect(res.body.message).toBe('Password must be at least 8 Characters');
  });

  it('refuses a taken email (in any case) with EMAIL_EXISTS', async () => {
    const { email } = await register(t);
    const res = await t.request('POST', PATH, { body: newAccount({ email: email.toUpperCase() }) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'EMAIL_EXISTS', field: 'email' });
  });

  it('refuses a taken username (in any case) with USERNAME_EXISTS', async () => {
    const { username } = await register(t);
    const res = await t.request('POST', PATH, { body: newAccount({ username: username.toUpperCase() }) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'USERNAME_EXISTS', field: 'username' });
  });

  it('refuses a wallet linked to another account with WALLET_EXISTS', async () => {
    const wallet = await provenWallet(t);
    await register(t, { ...wallet, cid: 'a' });
    const res = await t.request('POST', PATH, { body: newAccount({ ...wallet, cid: 'b' }) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'WALLET_EXISTS', field: 'walletAddress' });
  });

  it('links a wallet only with a wallet proof for that very address', async () => {
    const unproven = await t.request('POST', PATH, {
      body: newAccount({ walletAddress: flowAddress(), cid: 'c' }),
    });
    expect(unproven.status).toBe(400);
    expect(unproven.body).toMatchObject({ code: 'BLOCTO_AUTHENTICATION', field: 'walletAddress' });
    const { walletProof } = await provenWallet(t);
    const mismatched = await t.request('POST', PATH, {
      body: newAccount({ walletAddress: flowAddress(), walletProof, cid: 'c' }),
    });
    expect(mismatched.body).toMatchObject({ code: 'BLOCTO_AUTHENTICATION', field: 'walletAddress' });
    const forged = await t.request('POST', PATH, {
      body: newAccount({ walletAddress: flowAddress(), walletProof: 'not.a.proof', cid: 'c' }),
    });
    expect(forged.body).toMatchObject({ code: 'BLOCTO_AUTHENTICATION', field: 'walletAddress' });
  });

  it('reports the email first when email and username are both taken', async () => {
    const { email, username } = await register(t);
    const res = await t.request('POST', PATH, { body: newAccount({ email, username }) });
    expect(res.body.code).toBe('EMAIL_EXISTS');
  });

  it('creates exactly one account from concurrent registrations of one email', async () => {
    const email = newAccount().email;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => t.request('POST', PATH, { body: newAccount({ email }) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    for (const r of results.filter((r) => r.status === 400)) expect(r.body.code).toBe('EMAIL_EXISTS');
  });
});
