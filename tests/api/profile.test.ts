import { describe, expect, it } from 'vitest';
import { databases, flowAddress, provenWallet, register, useTestApp } from './support/harness';

const PATH = '/api/users/me';

describe.each(databases)('PATCH /api/users/me on %s', (database) => {
  const t = useTestApp(database);
  const patch = (token: string, body: unknown) => t.request('PATCH', PATH, { token, body });

  it('updates email, username, names, avatar and wallet and answers the user', async () => {
    const { authToken, id } = await register(t);
    const { walletAddress, walletProof } = await provenWallet(t);
    const changes = {
      email: 'Renamed.Person@Example.com',
      username: `Renamed-${id.slice(0, 8)}`,
      firstName: 'Grace Brewster',
      lastName: 'Hopper',
      avatarUrl: 'https://cdn.example/avatar.png',
      walletAddress,
    };
    const res = await patch(authToken, { ...changes, walletProof });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ...changes,
      email: 'renamed.person@example.com',
      wallet: { walletAddress },
    });
    expect(res.body.authToken).toBeUndefined();
    expect((await t.request('GET', PATH, { token: authToken })).body).toEqual(res.body);
  });

  it('leaves fields that are not sent unchanged and clears the avatar with null', async () => {
    const { authToken } = await register(t);
    await patch(authToken, { avatarUrl: 'https://cdn.example/a.png' });
    const res = await patch(authToken, { firstName: 'Katherine', avatarUrl: null });
    expect(res.body).toMatchObject({ firstName: 'Katherine', lastName: 'Lovelace', avatarUrl: null });
    expect((await patch(authToken, {})).body).toMatchObject({ firstName: 'Katherine', lastName: 'Lovelace' });
  });

  it('answers 401 without a token', async () => {
    expect((await t.request('PATCH', PATH, { body: { firstName: 'Nobody' } })).status).toBe(401);
  });

  const invalid: [string, Record<string, unknown>, { code: string; field: string }][] = [
    ['an empty email', { email: '' }, { code: 'EMAIL_MISSING', field: 'email' }],
    ['an invalid email', { email: 'nope' }, { code: 'INVALID_VALUE', field: 'email' }],
    ['an empty username', { username: '' }, { code: 'USERNAME_MISSING', field: 'username' }],
    ['a 1-character username', { username: 'a' }, { code: 'INVALID_USERNAME', field: 'username' }],
    [
      'a 51-character username',
      { username: 'a'.repeat(51) },
      { code: 'INVALID_USERNAME', field: 'username' },
    ],
    ['a username with a space', { username: 'two words' }, { code: 'INVALID_USERNAME', field: 'username' }],
    ['an empty first name', { firstName: ' ' }, { code: 'FIRSTNAME_MISSING', field: 'firstName' }],
    ['a 2-character first name', { firstName: 'Al' }, { code: 'INVALID_VALUE', field: 'firstName' }],
    [
      'a 101-character first name',
      { firstName: 'a'.repeat(101) },
      { code: 'INVALID_VALUE', field: 'firstName' },
    ],
    [
      'a 101-character last name',
      { lastName: 'a'.repeat(101) },
      { code: 'INVALID_VALUE', field: 'lastName' },
    ],
    [
      'an avatar that is not a URL',
      { avatarUrl: 'avatar.png' },
      { code: 'INVALID_VALUE', field: 'avatarUrl' },
    ],
    [
      'a malformed wallet address',
      { walletAddress: 'wallet' },
      { code: 'INVALID_VALUE', field: 'walletAddress' },
    ],
    [
      'a short new password',
      { oldPassword: 'x', newPassword: 'short' },
      { code: 'INVALID_VALUE', field: 'newPassword' },
    ],
    [
      'a new password without the old one',
      { newPassword: 'brand new password' },
      { code: 'PASSWORD_MISSING', field: 'oldPassword' },
    ],
    [
      'a new password equal to the old one',
      { oldPassword: 'same password', newPassword: 'same password' },
      { code: 'PASSWORD_SAME', field: 'newPassword' },
    ],
  ];
  it.each(invalid)('refuses %s with 400', async (_, body, error) => {
    const { authToken } = await register(t);
    const res = await patch(authToken, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ ...error, message: expect.any(String) });
  });

  it('refuses an email, username (in any case) or wallet of another user', async () => {
    const wallet = await provenWallet(t);
    const other = await register(t, { ...wallet, cid: 'c' });
    const { authToken } = await register(t);
    expect((await patch(authToken, { email: other.email })).body).toMatchObject({
      code: 'EMAIL_EXISTS',
      field: 'email',
    });
    expect((await patch(authToken, { username: other.username.toUpperCase() })).body).toMatchObject({
      code: 'USERNAME_EXISTS',
      field: 'username',
    });
    expect((await patch(authToken, wallet)).body).toMatchObject({
      code: 'WALLET_EXISTS',
      field: 'walletAddress',
    });
  });

  it('relinks a wallet only with a wallet proof for that address', async () => {
    const { authToken } = await register(t);
    expect((await patch(authToken, { walletAddress: flowAddress() })).body).toMatchObject({
      code: 'BLOCTO_AUTHENTICATION',
      field: 'walletAddress',
    });
  });

  it('lets users keep their own email and recase their own username', async () => {
    const { authToken, email, username } = await register(t);
    const res = await patch(authToken, { email, username: username.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body.username).toBe(username.toUpperCase());
  });

  describe('password change', () => {
    it('refuses a wrong old password with INVALID_VALUE on oldPassword', async () => {
      const { authToken } = await register(t);
      const res = await patch(authToken, {
        oldPassword: 'not my password',
        newPassword: 'brand new password',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'INVALID_VALUE',
        field: 'oldPassword',
        message: 'The current password is not correct',
      });
    });

    it('answers a fresh token, ends earlier sessions and changes the login password', async () => {
      const { authToken, email, password } = await register(t);
      const other = (await t.request('POST', '/api/auth/logins', { body: { email, password } })).body
        .authToken;
      const res = await patch(authToken, { oldPassword: password, newPassword: 'brand new password' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ email, authToken: expect.any(String) });
      expect(JSON.stringify(res.body)).not.toMatch(/argon2/);

      expect((await t.request('GET', PATH, { token: authToken })).status).toBe(401);
      expect((await t.request('GET', PATH, { token: other })).status).toBe(401);
      expect((await t.request('GET', PATH, { token: res.body.authToken })).status).toBe(200);

      const login = (pw: string) => t.request('POST', '/api/auth/logins', { body: { email, password: pw } });
      expect((await login(password)).status).toBe(401);
      expect((await login('brand new password')).status).toBe(200);
    });

    it('applies profile changes sent along with the password change', async () => {
      const { authToken, password } = await register(t);
      const res = await patch(authToken, {
        firstName: 'Changed',
        oldPassword: password,
        newPassword: 'brand new password',
      });
      expect(res.body.firstName).toBe('Changed');
    });
  });
});
