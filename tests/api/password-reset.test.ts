import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { RESET_TTL_MS, RESETS_PER_TTL } from '../../server/auth/resets';
import { outbox, passwordResets, users } from '../../server/db/schema';
import { databases, register, useTestApp } from './support/harness';
import { appLink, headersOf, testMail, waitForEmails } from './support/mailpit';

const REQUEST = '/api/auth/logins/passwords/resets';
const RESET = '/api/auth/logins/passwords';

/** The reset emails arrive in a real mail server (the test Mailpit), sent by the app's job worker. */
describe.each(databases)('password reset on %s', (database) => {
  const t = useTestApp(database, { mail: testMail() });

  const requestReset = (email: string) => t.request('POST', REQUEST, { body: { email } });
  /** The emails written for an address: each outbox row is one email to deliver. */
  const written = (to: string) => t.database.db.select().from(outbox).where(eq(outbox.to, to));
  const tokenOf = (link: string) => new URL(link).searchParams.get('t')!;
  const reset = (token: string | undefined, password: string) =>
    t.request('PATCH', RESET, { body: { password }, ...(token && { token }) });
  const login = (email: string, password: string) =>
    t.request('POST', '/api/auth/logins', { body: { email, password } });

  /** Registers an account, asks for a reset and answers the token from the emailed link. */
  async function resetToken() {
    const account = await register(t);
    expect((await requestReset(account.email)).status).toBe(204);
    const [message] = await waitForEmails(account.email);
    return { ...account, token: tokenOf(appLink(message!)!) };
  }

  describe('POST /api/auth/logins/passwords/resets', () => {
    it('answers 204 and emails a single link to /auth/reset-password?t=<token>, as HTML and plain text', async () => {
      const { email, firstName } = await register(t);
      const res = await requestReset(email.toUpperCase());
      expect(res.status).toBe(204);
      expect(res.body).toBeUndefined();
      const [first, ...more] = await waitForEmails(email);
      const message = first!;
      expect(more).toEqual([]);
      expect(message).toMatchObject({
        Subject: 'Reset your Vitrine password',
        From: { Name: 'Vitrine', Address: 'no-reply@vitrine.test' },
      });
      const link = appLink(message)!;
      expect(link).toMatch(/^http:\/\/vitrine\.test\/auth\/reset-password\?t=[\w-]{43}$/);
      expect(message.Text).toContain(`Hello ${firstName}`);
      expect(message.HTML).toContain(`href="${link}"`);
      // The row is the message: its id names it, and the relay's answer is kept with the time sent.
      const [row] = await written(email);
      expect(message.MessageID).toBe(`${row!.id}@vitrine.test`);
      expect(row!.link).toBe(link);
      await expect.poll(async () => (await written(email))[0]!.status).toBe('sent');
      const [sent] = await written(email);
      expect(sent!.relayAnswer).toMatchObject({
        response: expect.stringMatching(/^250 /),
        accepted: [email],
      });
      expect(sent!.sentAt!.getTime()).toBeGreaterThanOrEqual(sent!.createdAt.getTime());
      expect(sent!.attempts).toBe(1);
      // Only the optional sale emails carry an unsubscribe header.
      expect((await headersOf(message.ID))['List-Unsubscribe']).toBeUndefined();
    });

    it('stores only a SHA-256 of the token', async () => {
      const { id, token } = await resetToken();
      const [row] = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, id));
      expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row!.tokenHash).not.toContain(token);
      expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(RESET_TTL_MS);
    });

    it('answers 204 for an unknown email and sends nothing', async () => {
      const res = await requestReset('nobody-here@example.com');
      expect(res.status).toBe(204);
      expect(await written('nobody-here@example.com')).toEqual([]);
    });

    it('sends nothing to a blocked account', async () => {
      const { email, id } = await register(t);
      await t.database.db.update(users).set({ status: 'blocked' }).where(eq(users.id, id));
      expect((await requestReset(email)).status).toBe(204);
      expect(await written(email)).toEqual([]);
    });

    it(`sends at most ${RESETS_PER_TTL} emails per account and hour`, async () => {
      const { email } = await register(t);
      for (let i = 0; i < RESETS_PER_TTL + 2; i++) expect((await requestReset(email)).status).toBe(204);
      expect(await written(email)).toHaveLength(RESETS_PER_TTL);
      t.clock.advance(RESET_TTL_MS + 1000);
      await requestReset(email);
      expect(await written(email)).toHaveLength(RESETS_PER_TTL + 1);
      expect(await waitForEmails(email, RESETS_PER_TTL + 1)).toHaveLength(RESETS_PER_TTL + 1);
    });

    const invalid: [string, unknown, { code: string; field: string }][] = [
      ['no email', {}, { code: 'EMAIL_MISSING', field: 'email' }],
      ['an invalid email', { email: 'nope' }, { code: 'INVALID_VALUE', field: 'email' }],
      [
        'an email over 40 characters',
        { email: `${'a'.repeat(30)}@example.com` },
        { code: 'INVALID_VALUE', field: 'email' },
      ],
    ];
    it.each(invalid)('refuses %s with 400', async (_, body, error) => {
      const res = await t.request('POST', REQUEST, { body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(error);
    });
  });

  describe('PATCH /api/auth/logins/passwords', () => {
    it('sets the new password with the emailed token and ends earlier sessions', async () => {
      const { email, password, authToken, token } = await resetToken();
      const res = await reset(token, 'a brand new password');
      expect(res.status).toBe(204);
      expect((await login(email, password)).status).toBe(401);
      expect((await login(email, 'a brand new password')).status).toBe(200);
      expect((await t.request('GET', '/api/users/me', { token: authToken })).status).toBe(401);
    });

    it('accepts a token only once', async () => {
      const { token } = await resetToken();
      expect((await reset(token, 'first new password')).status).toBe(204);
      const again = await reset(token, 'second new password');
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({
        code: 'RESET_TOKEN_INVALID',
        message: expect.stringContaining('invalid'),
      });
    });

    it('voids the other open tokens of the user once one is used', async () => {
      const { email, token } = await resetToken();
      await requestReset(email);
      const [newest] = await waitForEmails(email, 2);
      const newToken = tokenOf(appLink(newest!)!);
      expect(newToken).not.toBe(token);
      expect((await reset(newToken, 'first new password')).status).toBe(204);
      expect((await reset(token, 'second new password')).body.code).toBe('RESET_TOKEN_INVALID');
    });

    it('refuses a token after one hour', async () => {
      const { email, password, token } = await resetToken();
      t.clock.advance(RESET_TTL_MS + 1000);
      const res = await reset(token, 'a brand new password');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('RESET_TOKEN_INVALID');
      expect((await login(email, password)).status).toBe(200);
    });

    it('accepts a token just before the hour is over', async () => {
      const { token } = await resetToken();
      t.clock.advance(RESET_TTL_MS - 1000);
      expect((await reset(token, 'a brand new password')).status).toBe(204);
    });

    it('refuses a missing, unknown or session token', async () => {
      const { authToken } = await register(t);
      for (const token of [undefined, 'unknown-token', authToken]) {
        const res = await reset(token, 'a brand new password');
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('RESET_TOKEN_INVALID');
      }
    });

    it('refuses a short or missing password with 400 and keeps the token usable', async () => {
      const { token } = await resetToken();
      const short = await reset(token, 'short');
      expect(short.status).toBe(400);
      expect(short.body).toMatchObject({ code: 'INVALID_VALUE', field: 'password' });
      const missing = await t.request('PATCH', RESET, { body: {}, token });
      expect(missing.body).toMatchObject({ code: 'PASSWORD_MISSING', field: 'password' });
      expect((await reset(token, 'a brand new password')).status).toBe(204);
    });

    it('forgives the failed logins of the email', async () => {
      const { email, token } = await resetToken();
      for (let i = 0; i < 10; i++) await login(email, 'wrong password');
      expect((await login(email, 'a brand new password')).status).toBe(429);
      await reset(token, 'a brand new password');
      t.address = '192.0.2.77';
      expect((await login(email, 'a brand new password')).status).toBe(200);
    });
  });
});
