import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { outbox as outboxTable } from '../../server/db/schema';
import { databases, flowAddress, type Json, provenWallet, register, useTestApp } from './support/harness';

const PATH = '/api/users/me';

describe.each(databases)('PATCH /api/users/me on %s', (database) => {
  const t = useTestApp(database);
  const patch = (token: string, body: unknown) => t.request('PATCH', PATH, { token, body });

  /** Stores an image as one of the user's uploads, as the upload URL would, and answers its URL. */
  async function upload(userId: string, name: string, size = 256) {
    const dir = join(t.config.dataDir, 'media', 'uploads', userId);
    mkdirSync(dir, { recursive: true });
    const png = await sharp({
      create: { width: size, height: size, channels: 3, background: '#3366aa' },
    })
      .png()
      .toBuffer();
    writeFileSync(join(dir, name), png);
    return `/media/uploads/${userId}/${name}`;
  }

  it('updates username, names, avatar and wallet and answers the user', async () => {
    const { authToken, id } = await register(t);
    const { walletAddress, walletProof } = await provenWallet(t);
    const changes = {
      username: `Renamed-${id.slice(0, 8)}`,
      firstName: 'Grace Brewster',
      lastName: 'Hopper',
      avatarUrl: await upload(id, 'avatar.png'),
      walletAddress,
    };
    const res = await patch(authToken, { ...changes, walletProof });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...changes, wallet: { walletAddress }, pendingEmail: null });
    expect(res.body.authToken).toBeUndefined();
    expect((await t.request('GET', PATH, { token: authToken })).body).toEqual(res.body);
  });

  it('leaves fields that are not sent unchanged and clears the avatar with null', async () => {
    const { authToken, id } = await register(t);
    await patch(authToken, { avatarUrl: await upload(id, 'a.png') });
    const res = await patch(authToken, { firstName: 'Katherine', avatarUrl: null });
    expect(res.body).toMatchObject({ firstName: 'Katherine', lastName: 'Lovelace', avatarUrl: null });
    expect((await patch(authToken, {})).body).toMatchObject({ firstName: 'Katherine', lastName: 'Lovelace' });
  });

  describe('avatar', () => {
    it.each([
      'javascript:alert(1)',
      'data:image/png;base64,iVBORw0KGgo=',
      'https://tracker.example/pixel.png',
      '//tracker.example/a.png',
      '/media/uploads/../../etc/passwd',
    ])('refuses %s', async (avatarUrl) => {
      const { authToken } = await register(t);
      const res = await patch(authToken, { avatarUrl });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_VALUE', field: 'avatarUrl' });
    });

    it("refuses another user's upload and a file that was never uploaded", async () => {
      const { authToken, id } = await register(t);
      const other = await register(t);
      const theirs = await upload(other.id, 'theirs.png');
      expect((await patch(authToken, { avatarUrl: theirs })).body).toMatchObject({ field: 'avatarUrl' });
      const missing = `/media/uploads/${id}/missing.png`;
      expect((await patch(authToken, { avatarUrl: missing })).status).toBe(400);
    });

    it('refuses an upload that breaks the avatar rules (at least 256×256)', async () => {
      const { authToken, id } = await register(t);
      const res = await patch(authToken, { avatarUrl: await upload(id, 'small.png', 100) });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'IMAGE_MIN_WIDTH', field: 'avatarUrl' });
    });
  });

  describe('email change', () => {
    /** The emails written (one outbox row each). */
    const outbox = async () => (await t.database.db.select().from(outboxTable)) as Json[];
    const linkToken = (link: string) => new URL(link).searchParams.get('t')!;

    it('needs the current password: the bearer token alone cannot change the email', async () => {
      const { authToken, email } = await register(t);
      const res = await patch(authToken, { email: 'thief@example.com' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'PASSWORD_MISSING', field: 'oldPassword' });
      const wrong = await patch(authToken, { email: 'thief@example.com', oldPassword: 'guess guess' });
      expect(wrong.body).toMatchObject({ code: 'INVALID_VALUE', field: 'oldPassword' });
      expect((await t.request('GET', PATH, { token: authToken })).body.email).toBe(email);
    });

    it('changes the email only once the link sent to the new address is opened, and tells the old one', async () => {
      const { authToken, email, password } = await register(t);
      const newEmail = `new-${email}`;
      const res = await patch(authToken, { email: newEmail.toUpperCase(), oldPassword: password });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ email, pendingEmail: newEmail });

      const mails = await outbox();
      const confirm = mails.find((m) => m.to === newEmail);
      const notice = mails.find((m) => m.to === email && /being changed/.test(m.subject));
      expect(confirm?.link).toMatch(/\/confirm-email\?t=/);
      expect(notice?.text).toContain(newEmail);

      // Not yet: the old email still logs in.
      const login = (e: string) => t.request('POST', '/api/auth/logins', { body: { email: e, password } });
      expect((await login(email)).status).toBe(200);

      const token = linkToken(confirm.link);
      const ok = await t.request('POST', '/api/users/email-confirmations', { body: { token } });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ email: newEmail });
      expect((await t.request('GET', PATH, { token: authToken })).body).toMatchObject({
        email: newEmail,
        pendingEmail: null,
      });
      expect((await login(newEmail)).status).toBe(200);

      const again = await t.request('POST', '/api/users/email-confirmations', { body: { token } });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ code: 'EMAIL_CHANGE_INVALID' });
    });

    it('refuses an expired link, and an address taken since the request', async () => {
      const { authToken, email, password } = await register(t);
      await patch(authToken, { email: `late-${email}`, oldPassword: password });
      const late = (await outbox()).find((m) => m.to === `late-${email}`);
      const me = async (token: string) => (await t.request('GET', PATH, { token })).body;
      expect(await me(authToken)).toMatchObject({ email, pendingEmail: `late-${email}` });
      t.clock.advance(24 * 3600_000 + 1000);
      // An expired request is no longer waiting.
      const login = await t.request('POST', '/api/auth/logins', { body: { email, password } });
      expect(await me(login.body.authToken)).toMatchObject({ email, pendingEmail: null });
      const expired = await t.request('POST', '/api/users/email-confirmations', {
        body: { token: linkToken(late.link) },
      });
      expect(expired.body).toMatchObject({ code: 'EMAIL_CHANGE_INVALID' });

      t.clock.reset();
      const wanted = `wanted-${email}`;
      await patch(authToken, { email: wanted, oldPassword: password });
      const link = (await outbox()).find((m) => m.to === wanted);
      await register(t, { email: wanted });
      const taken = await t.request('POST', '/api/users/email-confirmations', {
        body: { token: linkToken(link.link) },
      });
      expect(taken.status).toBe(400);
      expect(taken.body).toMatchObject({ code: 'EMAIL_EXISTS' });
    });

    it('keeps the session: a new email does not log the user out', async () => {
      const { authToken, email, password } = await register(t);
      await patch(authToken, { email: `kept-${email}`, oldPassword: password });
      expect((await t.request('GET', PATH, { token: authToken })).status).toBe(200);
    });
  });

  it('answers 401 without a token', async () => {
    expect((await t.request('PATCH', PATH, { body: { firstName: 'Nobody' } })).status).toBe(401);
  });

  /** A length rule's answer names its limits (params minLength / maxLength). */
  const invalid: [
    string,
    Record<string, unknown>,
    { code: string; field: string; params?: Record<string, number> },
  ][] = [
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
    [
      'a 2-character first name',
      { firstName: 'Al' },
      { code: 'INVALID_VALUE', field: 'firstName', params: { minLength: 3, maxLength: 100 } },
    ],
    [
      'a 101-character first name',
      { firstName: 'a'.repeat(101) },
      { code: 'INVALID_VALUE', field: 'firstName', params: { minLength: 3, maxLength: 100 } },
    ],
    [
      'a 101-character last name',
      { lastName: 'a'.repeat(101) },
      { code: 'INVALID_VALUE', field: 'lastName', params: { maxLength: 100 } },
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
