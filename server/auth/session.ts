import { SESSION_EXPIRED_TEXT } from '#domain/apiError';
import type { Services } from '../deps';
import { type Authenticate, forbidden, unauthorized } from '../http';

const BEARER = /^Bearer\s+(\S+)$/i;

/** The bearer token from the Authorization header, if there is one. */
export function bearerToken(header: string | undefined): string | undefined {
  return header?.match(BEARER)?.[1];
}

/**
 * Sets the caller from the session token. A token that is malformed or expired, whose session was
 * logged out or revoked, of an older token version (password changed since) or of a user who is no
 * longer active answers 401. An admin route answers 403 to anyone whose role is not admin. A route
 * with auth 'token' gets the token's claims and checks the session in its own statement.
 */
export function authenticator({ tokens, sessions }: Pick<Services, 'tokens' | 'sessions'>): Authenticate {
  return async (c, mode) => {
    if (mode === 'none') return;
    const header = c.req.header('authorization');
    if (header === undefined && mode === 'optional') return;
    const token = bearerToken(header);
    if (!token) throw unauthorized('Please log in');
    const claims = await tokens.verify(token);
    if (mode === 'token') {
      // The route's statement checks the session (open, active user, this token version).
      if (!claims) throw unauthorized(SESSION_EXPIRED_TEXT);
      c.set('claims', claims);
      c.set('sessionId', claims.sid);
      return;
    }
    const user = claims ? await sessions.openUser(claims.sid, claims.userId) : undefined;
    if (!claims || user?.status !== 'active' || user.tokenVersion !== claims.tv) {
      throw unauthorized(SESSION_EXPIRED_TEXT);
    }
    if (mode === 'admin' && user.role !== 'admin') throw forbidden();
    c.set('user', user);
    c.set('sessionId', claims.sid);
  };
}
