import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { REGISTRATION_ROLE } from '#domain/enums';
import { ErrorCode } from '#domain/errors';
import {
  EmailConfirmed,
  ProfileUpdateAnswer,
  RegistrationAnswer,
  SaleEmailsOff,
  User,
  UserAnswer,
} from '#domain/responses/users';
import {
  EmailConfirmationInput,
  ProfileUpdateInput,
  RegistrationInput,
  SaleEmailsOffInput,
} from '#domain/schemas/accounts';
import { assertOwnUpload } from '../assets/uploads';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { users } from '../db/schema';
import type { Services } from '../deps';
import { confirmNewEmail, emailChangeNotice } from '../emails/email-change';
import { badRequest, defineRoute, notFound, type Route } from '../http';
import { emailsOffFor } from '../mail/unsubscribe';
import { queueEmail } from '../outbox';
import { consumeEmailChange, createEmailChange } from './email-changes';
import { type UserPresenter, userPresenter } from './json';
import { findUserById, insertUser, nextTokenVersion, takenBy, uniquely, updateUser } from './queries';
import { takeSignupSlot } from './signup-limit';

/** Users: registration, profile read and update, email confirmation, turning sale emails off by link. */
export function userRoutes(s: Services): Route[] {
  const present = userPresenter(s.db, s.clock);
  return [...accountRoutes(s, present), ...profileRoutes(s, present), ...emailRoutes(s)];
}

/** Registering, and reading the caller's or another user's account. */
function accountRoutes(s: Services, present: UserPresenter): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/users/registrations',
      tag: 'users',
      summary: 'Register an account (role creator) and log it in',
      body: RegistrationInput,
      response: RegistrationAnswer,
      responses: {
        201: 'The session token and the new user: { authToken, user }',
        400: 'Invalid input, or EMAIL_EXISTS, USERNAME_EXISTS, WALLET_EXISTS',
        429: 'RATE_LIMITED: many sign-ups from this address within the hour; the next must wait (Retry-After)',
      },
      async handler(c, { body }) {
        await assertWalletProven(s, body);
        const taken = await takenBy(s.db, body);
        if (taken) throw taken;
        await takeSignupSlot(s.db, s.clock(), s.clientAddress(c), s.config.signupFreePerHour);
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
        const authToken = await s.sessions.start(c, user);
        return c.json({ authToken, user: await present.user(user, user) }, 201);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/users/me',
      tag: 'users',
      summary: 'The logged-in user',
      auth: 'required',
      response: User,
      responses: { 200: 'The user', 401: 'Missing, invalid or expired token' },
      async handler(c) {
        return c.json(await present.me(c.get('user')!));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/users/{id}',
      tag: 'users',
      summary: 'A user; the email only for the user and for admins',
      auth: 'optional',
      params: v.object({ id: v.pipe(v.string(), v.uuid()) }),
      response: UserAnswer,
      responses: { 200: 'The user', 401: 'Invalid or expired token', 404: 'No such user' },
      async handler(c, { params }) {
        const user = await findUserById(s.db, params.id);
        if (!user) throw notFound();
        return c.json(await present.user(user, c.get('user')));
      },
    }),
  ];
}

/** Changing the caller's account. */
function profileRoutes(s: Services, present: UserPresenter): Route[] {
  return [
    defineRoute({
      method: 'patch',
      path: '/users/me',
      tag: 'users',
      summary:
        'Update the profile. A password change (oldPassword, newPassword) ends every other session and answers a fresh authToken. A new email needs the current password (oldPassword): it changes once the link sent to it is opened, and the old address is told.',
      auth: 'required',
      body: ProfileUpdateInput,
      response: ProfileUpdateAnswer,
      responses: {
        200: 'The updated user (pendingEmail: the address waiting for confirmation), plus authToken when the password changed',
        400: 'Invalid input; PASSWORD_MISSING or INVALID_VALUE for oldPassword; EMAIL_EXISTS, USERNAME_EXISTS, WALLET_EXISTS; an avatarUrl that is not an avatar the user uploaded',
        401: 'Missing, invalid or expired token',
      },
      async handler(c, { body }) {
        const me = c.get('user')!;
        const { oldPassword, newPassword, walletProof: _proof, email, ...profile } = body;
        const newEmail = email !== undefined && email !== me.email ? email : undefined;
        await assertWalletProven(s, body);
        if (profile.avatarUrl)
          await assertOwnUpload(s.storage, me.id, {
            field: 'avatarUrl',
            url: profile.avatarUrl,
            kind: 'userAvatar',
          });
        const taken = await takenBy(s.db, { ...profile, email: newEmail }, me.id);
        if (taken) throw taken;
        if ((newPassword !== undefined || newEmail !== undefined) && !oldPassword)
          throw badRequest(ErrorCode.PASSWORD_MISSING, 'oldPassword');
        if (oldPassword !== undefined && (newPassword !== undefined || newEmail !== undefined)) {
          if (!(await verifyPassword(me.passwordHash, oldPassword)))
            throw badRequest(ErrorCode.INVALID_VALUE, 'oldPassword');
        }
        const password =
          newPassword === undefined
            ? {}
            : { passwordHash: await hashPassword(newPassword), tokenVersion: nextTokenVersion };
        const changes = { ...definedOnly(profile), ...password };
        const { user, authToken } = await s.db.transaction(async (tx) => {
          const user =
            Object.keys(changes).length > 0 ? await uniquely(() => updateUser(tx, me.id, changes)) : me;
          if (newPassword === undefined) return { user, authToken: undefined };
          // A new password ends every session, this one included, and opens a new one here.
          await s.sessions.endAll(tx, me.id);
          return { user, authToken: await s.sessions.start(c, user, tx) };
        });
        if (newEmail !== undefined)
          // The change waiting for confirmation and both its emails commit together.
          await s.db.transaction(async (tx) => {
            const token = await createEmailChange(tx, s.clock, me.id, newEmail);
            const link = `${s.config.publicUrl}/confirm-email?t=${token}`;
            await queueEmail(tx, await confirmNewEmail(user, newEmail, link), s.clock());
            await queueEmail(tx, await emailChangeNotice(user, newEmail, s.config.publicUrl), s.clock());
          });
        const json = await present.me(user);
        return c.json(authToken === undefined ? json : { ...json, authToken });
      },
    }),
  ];
}

/** Confirming an email address and opting out of sale emails. */
function emailRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/users/email-confirmations',
      tag: 'users',
      summary: 'Confirms a new email address with the token of the link sent to it; the email changes',
      body: EmailConfirmationInput,
      response: EmailConfirmed,
      responses: {
        200: '{ email }: the account’s email now',
        400: 'EMAIL_CHANGE_INVALID (unknown, used or expired link), or EMAIL_EXISTS',
      },
      async handler(c, { body }) {
        const email = await s.db.transaction(async (tx) => {
          const change = await consumeEmailChange(tx, s.clock, body.token);
          if (!change) throw badRequest(ErrorCode.EMAIL_CHANGE_INVALID, 'token');
          const taken = await takenBy(tx, { email: change.newEmail }, change.userId);
          if (taken) throw taken;
          const user = await uniquely(() => updateUser(tx, change.userId, { email: change.newEmail }));
          return user.email;
        });
        return c.json({ email });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/users/sale-email-opt-outs',
      tag: 'users',
      summary:
        'Turns sale emails (or, with a favorites link, favorite emails) off with the token of the link every such email carries (no sign-in: the link is signed, server/mail/unsubscribe.ts); saying it again changes nothing',
      body: SaleEmailsOffInput,
      response: SaleEmailsOff,
      responses: {
        200: '{ userId, saleEmails: false } or { userId, favoriteEmails: false }',
        400: 'UNSUBSCRIBE_LINK_INVALID.token: not a link of ours (or its account is gone)',
      },
      async handler(c, { body }) {
        const off = emailsOffFor(s.config.jwtSecret, body.token);
        const column = off?.list === 'favorite' ? 'favoriteEmails' : 'saleEmails';
        const [row] = off
          ? await s.db
              .update(users)
              .set({ [column]: false })
              .where(eq(users.id, off.userId))
              .returning({ id: users.id })
          : [];
        if (!row) throw badRequest(ErrorCode.UNSUBSCRIBE_LINK_INVALID, 'token');
        return c.json(
          column === 'favoriteEmails'
            ? { userId: row.id, favoriteEmails: false as const }
            : { userId: row.id, saleEmails: false as const },
        );
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

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
