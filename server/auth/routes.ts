import { eq } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import { AuthTokenAnswer, noContent } from '#domain/responses/common';
import { LoginInput, PasswordResetInput, PasswordResetRequestInput } from '#domain/schemas/accounts';
import { users } from '../db/schema';
import type { Services } from '../deps';
import { passwordResetEmail } from '../emails/password-reset';
import { badRequest, defineRoute, forbidden, type Route, unauthorized } from '../http';
import { queueEmail } from '../outbox';
import { findUserByEmail, nextTokenVersion } from '../users/queries';
import { beginLoginAttempt, clearLoginFailures, loginSucceeded } from './login-limit';
import { hashPassword, verifyNobody, verifyPassword } from './passwords';
import { consumeResetToken, createResetToken } from './resets';
import { bearerToken } from './session';

/** Email and password login, forgotten-password email and password reset. */
export function authRoutes(s: Services): Route[] {
  return [...sessionRoutes(s), ...passwordRoutes(s)];
}

/** Logging in, refreshing a session and logging out. */
function sessionRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/logins',
      tag: 'auth',
      summary: 'Log in with email and password; sets the refresh cookie and the device cookie',
      body: LoginInput,
      response: AuthTokenAnswer,
      responses: {
        200: 'The session token: { authToken }',
        400: 'Invalid input',
        401: 'Invalid email or password',
        403: 'The account is blocked or removed',
        429: 'RATE_LIMITED: this account must wait for clients without its device cookie, or this address is paced (Retry-After)',
      },
      async handler(c, { body }) {
        const user = await findUserByEmail(s.db, body.email);
        const device = user && (await s.devices.recognise(c, user));
        const attempt = { email: body.email, address: s.clientAddress(c), device };
        const counted = await beginLoginAttempt(s.db, s.clock, attempt);
        const valid = user
          ? await verifyPassword(user.passwordHash, body.password)
          : await verifyNobody(body.password);
        if (!user || !valid) throw unauthorized('Invalid email or password');
        if (user.status !== 'active') throw forbidden();
        await loginSucceeded(s.db, counted);
        return c.json({ authToken: await s.sessions.start(c, user) });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/sessions/refresh',
      tag: 'auth',
      summary:
        'A new session token for the session of the refresh cookie (HTTP-only, set at login); the cookie is replaced',
      response: AuthTokenAnswer,
      responses: {
        200: 'The session token: { authToken }',
        401: 'No session, or the session ended (logged out, expired, revoked)',
      },
      async handler(c) {
        return c.json({ authToken: await s.sessions.refresh(c) });
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/auth/sessions/current',
      tag: 'auth',
      summary:
        'Logs out: ends the session of the bearer token and of the refresh cookie (either may be out of date); its tokens stop working at once',
      response: noContent,
      responses: { 204: 'Logged out' },
      async handler(c) {
        const token = bearerToken(c.req.header('authorization'));
        const claims = token ? await s.tokens.verify(token) : undefined;
        await s.sessions.end(c, claims?.sid);
        return c.body(null, 204);
      },
    }),
  ];
}

/** Asking for a password reset and setting a new password. */
function passwordRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/logins/passwords/resets',
      tag: 'auth',
      summary: 'Email a single-use password reset link (answers 204 whether or not the account exists)',
      body: PasswordResetRequestInput,
      response: noContent,
      responses: { 204: 'Accepted', 400: 'Invalid input' },
      async handler(c, { body }) {
        const user = await findUserByEmail(s.db, body.email);
        if (user?.status === 'active')
          // The token and its email commit together.
          await s.db.transaction(async (tx) => {
            const token = await createResetToken(tx, s.clock, user.id);
            if (!token) return;
            const link = `${s.config.publicUrl}/auth/reset-password?t=${token}`;
            await queueEmail(tx, await passwordResetEmail(user, link), s.clock());
          });
        return c.body(null, 204);
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/auth/logins/passwords',
      tag: 'auth',
      summary: 'Set a new password with the reset token as bearer; ends every session of the user',
      body: PasswordResetInput,
      response: noContent,
      responses: {
        204: 'Password changed',
        400: 'Invalid password, or RESET_TOKEN_INVALID (unknown, used or expired token)',
      },
      async handler(c, { body }) {
        const token = bearerToken(c.req.header('authorization'));
        if (!token) throw badRequest(ErrorCode.RESET_TOKEN_INVALID);
        const passwordHash = await hashPassword(body.password);
        const email = await s.db.transaction(async (tx) => {
          const userId = await consumeResetToken(tx, s.clock, token);
          if (!userId) throw badRequest(ErrorCode.RESET_TOKEN_INVALID);
          const [user] = await tx
            .update(users)
            .set({ passwordHash, tokenVersion: nextTokenVersion })
            .where(eq(users.id, userId))
            .returning({ email: users.email });
          await s.sessions.endAll(tx, userId);
          return user!.email;
        });
        await clearLoginFailures(s.db, email);
        return c.body(null, 204);
      },
    }),
  ];
}
