import { fromPromise } from 'xstate';
import type { LinkResult, RegistrationRequest, SaveResult, SettingsKind } from '#domain/ports/accounts';
import type { KycSession, KycSessionInput } from '#domain/schemas/kyc';
import type { User } from '#domain/user';
import {
  generatedPassword,
  generatedUsername,
  randomLetters,
  USERNAME_SUFFIX_LENGTH,
} from '#domain/username';
import type { Api } from './api';
import { profileActor } from './profile';

const cryptoRandom = (n: number) => crypto.getRandomValues(new Uint8Array(n));

/**
 * The accounts part of the product API, as the actors the session and auth machines name. The
 * flows (src/flows.ts) make them, so they load with the first flow; the session's own profile
 * fetch, which every page runs, is in ./profile.ts.
 */
export function accountActors(api: Api) {
  return {
    fetchProfile: profileActor(api),
    checkUserExistence: fromPromise<{ exists: boolean }, { email: string }>(({ input }) =>
      api.get('/queries/user-existence', { query: { email: input.email } }),
    ),
    register: fromPromise<{ authToken: string; user: User }, RegistrationRequest>(({ input }) =>
      api.post('/users/registrations', {
        json: {
          email: input.email,
          username: generatedUsername(
            input.firstName || input.email,
            randomLetters(USERNAME_SUFFIX_LENGTH, cryptoRandom),
          ),
          password: input.password ?? generatedPassword(cryptoRandom),
          firstName: input.firstName,
          lastName: input.lastName,
          ...(input.walletAddress
            ? { walletAddress: input.walletAddress, cid: input.cid, walletProof: input.walletProof }
            : {}),
        },
      }),
    ),
    login: fromPromise<{ authToken: string }, { email: string; password: string }>(({ input }) =>
      api.post('/auth/logins', { json: input }),
    ),
    saveProfile: fromPromise<{ user: User }, { username: string; firstName: string; lastName: string }>(
      async ({ input }) => ({ user: await api.patch('/users/me', { json: input }) }),
    ),
    requestPasswordReset: fromPromise<void, { email: string }>(({ input }) =>
      api.post('/auth/logins/passwords/resets', { json: input }),
    ),
    resetPassword: fromPromise<void, { token: string; password: string }>(({ input }) =>
      api.patch('/auth/logins/passwords', {
        json: { password: input.password },
        init: { headers: { Authorization: `Bearer ${input.token}` } },
      }),
    ),
    /** The account's avatar: an uploaded avatar's URL, or null for the identicon. */
    saveAvatar: fromPromise<{ user: User }, { avatarUrl: string | null }>(async ({ input }) => ({
      user: await api.patch('/users/me', { json: { avatarUrl: input.avatarUrl } }),
    })),
    /** Identity verification: opens the provider's session for the legal name → { url }. */
    createKycSession: fromPromise<KycSession, KycSessionInput>(({ input }) =>
      api.post('/veriff-kyc', { json: input }),
    ),
    /** The link sent to a new email address: the email changes ({ email }). */
    confirmEmail: fromPromise<LinkResult, { token: string }>(({ input }) =>
      api.post('/users/email-confirmations', { json: { token: input.token } }),
    ),
    /** The link in a sale (or favorite) email: that account's sale (or favorite) emails are off (EmailsOff). */
    turnOffSaleEmails: fromPromise<LinkResult, { token: string }>(({ input }) =>
      api.post('/users/sale-email-opt-outs', { json: { token: input.token } }),
    ),
    /** Settings → Account and Security both save through PATCH users/me. */
    saveSettings: fromPromise<SaveResult, { kind: SettingsKind; values: Record<string, unknown> }>(
      async ({ input }) => {
        const { authToken, ...user } = await api.patch('/users/me', { json: input.values });
        return authToken ? { user, authToken } : { user };
      },
    ),
  };
}
