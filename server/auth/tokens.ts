import { createHash } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import * as v from 'valibot';
import { roles } from '#domain/enums';
import type { Clock } from '../clock';

/**
 * Session tokens: short-lived HS256 JWTs carrying userId, role, the user's token version (tv), the
 * session they belong to (sid) and exp. A token is honoured only while its session is open (see
 * sessions.ts), so logging out ends it at once.
 */

/**
 * The SHA-256 (hex) of a secret token handed out by link or cookie (reset links, email
 * confirmations, refresh tokens): only this is stored, so the database alone lets nobody use one.
 */
export const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');

const Claims = v.object({
  userId: v.pipe(v.string(), v.uuid()),
  role: v.picklist(roles),
  tv: v.pipe(v.number(), v.integer()),
  sid: v.pipe(v.string(), v.uuid()),
});
export type TokenClaims = v.InferOutput<typeof Claims>;

export interface Tokens {
  issue(
    user: { id: string; role: TokenClaims['role']; tokenVersion: number },
    sessionId: string,
  ): Promise<string>;
  /** The claims of a valid, unexpired token; undefined otherwise. */
  verify(token: string): Promise<TokenClaims | undefined>;
}

/**
 * The HS256 key of a secret, imported once for signing and verifying: handed the secret's bytes,
 * jose imports a key on every sign and verify, which is about half of a verify's time.
 */
export const hs256Key = (secret: string) =>
  crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);

export function createTokens(secret: string, ttlSeconds: number, clock: Clock): Tokens {
  const key = hs256Key(secret);
  return {
    async issue(user, sessionId) {
      const now = Math.floor(clock().getTime() / 1000);
      return new SignJWT({ userId: user.id, role: user.role, tv: user.tokenVersion, sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .sign(await key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          currentDate: clock(),
        });
        const claims = v.safeParse(Claims, payload);
        return claims.success ? claims.output : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
