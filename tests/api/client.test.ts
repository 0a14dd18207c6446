import { describe, expect, it, vi } from 'vitest';
import { type AnyActorLogic, createActor, toPromise } from 'xstate';
import { ApiError } from '#domain/errors';
import { accountActors } from '../../src/services/accounts';
import { createApi } from '../../src/services/api';
import { newAccount, register, useTestApp } from './support/harness';

/**
 * The browser's API client (ky) against the real API app and the actors the machines use. Answers:
 * no answer or a status of 500 or more raises NETWORK_FAILURE; 400 and 404 raise the parsed body; a
 * 401 logs out, except on the login calls. Requests go to the Hono app in-process instead of over a socket.
 */

describe('the browser client against the API', () => {
  const t = useTestApp('pglite');

  function client(token: string | null = null) {
    const onUnauthorized = vi.fn();
    const api = createApi({
      baseUrl: 'http://vitrine.test/api',
      getToken: () => token,
      onUnauthorized,
      fetch: (input, init) => t.app.fetch(new Request(input, init)) as Promise<Response>,
    });
    return { api, onUnauthorized };
  }

  async function run<T>(logic: AnyActorLogic, input: unknown): Promise<T> {
    return (await toPromise(createActor(logic, { input }).start())) as T;
  }

  describe('API client', () => {
    it('raises the parsed body on 400, with the error code and field', async () => {
      const { api } = client();
      const err = await api
        .post('/users/registrations', { json: { email: 'nope' } })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(400);
      expect((err as ApiError).body).toMatchObject({ code: 'INVALID_VALUE', field: 'email' });
    });

    it('a 401 on a login call is wrong credentials, not a logout', async () => {
      const { api, onUnauthorized } = client();
      const err = (await api
        .post('/auth/logins', { json: { email: 'x@example.com', password: 'whatever-1' } })
        .catch((e) => e)) as ApiError;
      expect(err.status).toBe(401);
      expect(err.body.message).toBe('Invalid email or password');
      expect(onUnauthorized).not.toHaveBeenCalled();
    });

    it('a 401 on any other call logs out', async () => {
      const { api, onUnauthorized } = client('not-a-valid-token');
      const err = (await api.get('/users/me').catch((e) => e)) as ApiError;
      expect(err.status).toBe(401);
      // With the server's reason, which the sign-in page shows.
      expect(onUnauthorized).toHaveBeenCalledExactlyOnceWith({
        code: 'UNAUTHORIZED',
        message: 'Your session has expired. Please log in again.',
      });
    });

    it('no answer raises NETWORK_FAILURE', async () => {
      const api = createApi({
        baseUrl: 'http://vitrine.test/api',
        getToken: () => null,
        onUnauthorized: () => {},
        fetch: () => Promise.reject(new TypeError('Failed to fetch')),
      });
      const err = (await api.get('/health').catch((e) => e)) as ApiError;
      expect(err.body.code).toBe('NETWORK_FAILURE');
    });

    it('status 500 or above raises NETWORK_FAILURE', async () => {
      const api = createApi({
        baseUrl: 'http://vitrine.test/api',
        getToken: () => null,
        onUnauthorized: () => {},
        fetch: async () => new Response('upstream down', { status: 502 }),
      });
      const err = (await api.get('/health').catch((e) => e)) as ApiError;
      expect(err.status).toBe(502);
      expect(err.body.code).toBe('NETWORK_FAILURE');
    });
  });

  describe('account actors against the API', () => {
    it('register generates a sign-up-valid username and logs in', async () => {
      const { api } = client();
      const actors = accountActors(api);
      const account = newAccount();
      const out = await run<{ authToken: string; user: { username: string; role: string } }>(
        actors.register,
        {
          email: account.email,
          password: account.password,
          firstName: 'Ada',
          lastName: 'Lovelace',
          walletAddress: null,
          cid: null,
        },
      );
      expect(out.authToken).toMatch(/^ey/);
      expect(out.user.username).toMatch(/^ada_[a-z]{6}$/);
      expect(out.user.role).toBe('creator');
    });

    it('checkUserExistence, login, fetchProfile, saveSettings and the password reset request', async () => {
      const account = await register(t);
      const { user, authToken } = account;
      const anonymous = accountActors(client().api);
      expect(await run(anonymous.checkUserExistence, { email: account.email })).toEqual({ exists: true });
      expect(await run(anonymous.checkUserExistence, { email: 'nobody@example.com' })).toEqual({
        exists: false,
      });
      const login = await run<{ authToken: string }>(anonymous.login, {
        email: account.email,
        password: account.password,
      });
      expect(login.authToken).toMatch(/^ey/);
      await run(anonymous.requestPasswordReset, { email: account.email });

      const mine = accountActors(client(authToken).api);
      expect(await run(mine.fetchProfile, { userId: user.id })).toMatchObject({
        status: 'ok',
        user: { id: user.id },
      });
      expect(await run(mine.fetchProfile, { userId: '00000000-0000-4000-8000-000000000000' })).toEqual({
        status: 'notFound',
      });
      const saved = await run<{ user: { firstName: string }; authToken?: string }>(mine.saveSettings, {
        kind: 'account',
        values: { firstName: 'Augusta' },
      });
      expect(saved.user.firstName).toBe('Augusta');
      expect(saved.authToken).toBeUndefined();
      const changed = await run<{ authToken?: string }>(mine.saveSettings, {
        kind: 'password',
        values: { oldPassword: account.password, newPassword: 'a-brand-new-password' },
      });
      expect(changed.authToken).toMatch(/^ey/);
    });
  });
});
