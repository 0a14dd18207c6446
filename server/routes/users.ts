import * as v from 'valibot';
import { REGISTRATION_ROLE } from '../../src/domain/enums';
import { ErrorCode } from '../../src/domain/errors';
import { ProfileUpdateInput, RegistrationInput } from '../../src/domain/schemas/accounts';
import { hashPassword, verifyPassword } from '../auth/passwords';
import type { Services } from '../deps';
import { badRequest, defineRoute, notFound, type Route } from '../http';
import { presentUser } from '../users/json';
import { findUserById, insertUser, nextTokenVersion, takenBy, uniquely, updateUser } from '../users/store';

/** Users (SPEC §3, §7): registration, profile read and update. */
export function userRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/users/registrations',
      tag: 'users',
      summary: 'Register an account (role creator) and log it in',
      body: RegistrationInput,
      responses: {
        201: 'The session token and the new user: { authToken, user }',
        400: 'Invalid input, or EMAIL_EXISTS, USERNAME_EXISTS, WALLET_EXISTS',
      },
      async handler(c, { body }) {
        await assertWalletProven(s, body);
        const taken = await takenBy(s.db, body);
        if (taken) throw taken;
        const passwordHash = await hashPassword(body.password);
        const user = await uniquely(() =>
          insertUser(s.db, {
            email: body.email,
            username: body.username,
            passwordHash,
            firstName: body.firstName,
            lastName: body.lastName,
            walletAddress: body.walletAddress ?? null,
            cid: body.cid ?? null,
            rewardCode: body.rewardCode ?? null,
            role: REGISTRATION_ROLE,
            status: 'active',
            createdAt: s.clock(),
          }),
        );
        const authToken = await s.tokens.issue(user);
        return c.json({ authToken, user: await presentUser(s.db, user, user) }, 201);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/users/me',
      tag: 'users',
      summary: 'The logged-in user',
      auth: 'required',
      responses: { 200: 'The user', 401: 'Missing, invalid or expired token' },
      async handler(c) {
        const me = c.get('user')!;
        return c.json(await presentUser(s.db, me, me));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/users/{id}',
      tag: 'users',
      summary: 'A user; the email only for the user and for admins',
      auth: 'optional',
      params: v.object({ id: v.pipe(v.string(), v.uuid()) }),
      responses: { 200: 'The user', 401: 'Invalid or expired token', 404: 'No such user' },
      async handler(c, { params }) {
        const user = await findUserById(s.db, params.id);
        if (!user) throw notFound();
        return c.json(await presentUser(s.db, user, c.get('user')));
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/users/me',
      tag: 'users',
      summary:
        'Update the profile; a password change (oldPassword, newPassword) also answers a fresh authToken',
      auth: 'required',
      body: ProfileUpdateInput,
      responses: {
        200: 'The updated user, plus authToken when the password changed (earlier tokens stop working)',
        400: 'Invalid input, wrong oldPassword, or EMAIL_EXISTS, USERNAME_EXISTS, WALLET_EXISTS',
        401: 'Missing, invalid or expired token',
      },
      async handler(c, { body }) {
        const me = c.get('user')!;
        const { oldPassword, newPassword, walletProof: _proof, ...profile } = body;
        await assertWalletProven(s, body);
        const taken = await takenBy(s.db, profile, me.id);
        if (taken) throw taken;
        const password =
          newPassword === undefined
            ? {}
            : await changedPassword(me.passwordHash, oldPassword ?? '', newPassword);
        const changes = { ...definedOnly(profile), ...password };
        const user =
          Object.keys(changes).length > 0 ? await uniquely(() => updateUser(s.db, me.id, changes)) : me;
        const json = await presentUser(s.db, user, user);
        return c.json(newPassword === undefined ? json : { ...json, authToken: await s.tokens.issue(user) });
      },
    }),
  ];
}

/** Linking a wallet address needs a wallet proof for that address (verify-account-proof). */
async function assertWalletProven(s: Services, body: { walletAddress?: string; walletProof?: string }) {
  if (!body.walletAddress) return;
  const proven = body.walletProof ? await s.walletProofs.verify(body.walletProof) : undefined;
  if (proven !== body.walletAddress) throw badRequest(ErrorCode.BLOCTO_AUTHENTICATION, 'walletAddress');
}

async function changedPassword(passwordHash: string, oldPassword: string, newPassword: string) {
  if (!(await verifyPassword(passwordHash, oldPassword)))
    throw badRequest(ErrorCode.INVALID_VALUE, 'oldPassword');
  return { passwordHash: await hashPassword(newPassword), tokenVersion: nextTokenVersion };
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
