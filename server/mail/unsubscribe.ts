import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';

/**
 * The link that turns an account's sale emails off without signing in (in every sale email and its
 * List-Unsubscribe header): `<PUBLIC_URL>/unsubscribe?t=<user id>.<HMAC-SHA256 of
 * "sale-emails-off:<user id>" under JWT_SECRET, base64url>`. It does nothing else, never expires, and
 * a new JWT_SECRET voids every one.
 */
const mac = (secret: string, userId: string) =>
  createHmac('sha256', secret).update(`sale-emails-off:${userId}`).digest('base64url');

export function saleEmailsOffUrl(site: Pick<Config, 'publicUrl' | 'jwtSecret'>, userId: string): string {
  return `${site.publicUrl}/unsubscribe?t=${userId}.${mac(site.jwtSecret, userId)}`;
}

/** The account a token turns sale emails off for; undefined unless the token is one of ours. */
export function saleEmailsOffUser(secret: string, token: string): string | undefined {
  const [userId, given, ...rest] = token.split('.');
  if (!userId || !given || rest.length > 0) return undefined;
  const expected = Buffer.from(mac(secret, userId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? userId : undefined;
}
