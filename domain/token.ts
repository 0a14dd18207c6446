import type { Role } from './enums';
import { roles } from './enums';
import type { SessionClaims } from './user';

function base64UrlDecode(part: string): string {
  const b64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  return typeof atob === 'function' ? atob(b64) : Buffer.from(b64, 'base64').toString('binary');
}

/**
 * Reads the claims of a bearer JWT: logging in stores the token with the expiry and user id read from it.
 * The signature is the server's business; a token that cannot be read gives null.
 */
export function readSessionToken(token: string): SessionClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(base64UrlDecode(payload)) as {
      userId?: unknown;
      role?: unknown;
      exp?: unknown;
    };
    if (typeof claims.userId !== 'string' || typeof claims.exp !== 'number') return null;
    const role: Role = roles.includes(claims.role as Role) ? (claims.role as Role) : 'unknown';
    return { userId: claims.userId, role, expiresAt: claims.exp * 1000 };
  } catch {
    return null;
  }
}
