import { fromPromise } from 'xstate';
import { ApiError } from '#domain/apiError';
import type { ProfileResult } from '#domain/ports/accounts';
import type { Api } from './api';

/**
 * The signed-in user's profile, as the session's fetchProfile actor: a 404 is `notFound` (the
 * session then logs out), any other error is thrown. Every page runs it, so it is apart from the
 * other account actors (./accounts.ts), which load with the flows.
 */
export function profileActor(api: Api) {
  return fromPromise<ProfileResult, { userId: string }>(async ({ input }) => {
    try {
      const user = await api.get('/users/{id}', { params: { id: input.userId } });
      // One's own profile is the whole user (with the KYC record); only someone else's is public.
      return 'kyc' in user ? { status: 'ok', user } : { status: 'notFound' };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return { status: 'notFound' };
      throw error;
    }
  });
}
