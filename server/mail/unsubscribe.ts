import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';

/**
 * The links that turn an account's optional emails off without signing in (in every such email and
 * its List-Unsubscribe header): `<PUBLIC_URL>/unsubscribe?t=<token>`. Sale emails (the item sold):
 * `<user id>.<mac>`; favorite emails (a saved item's price drop or opening sale):
 * `favorites.<user id>.<mac>`; the mac is HMAC-SHA256 of "<list>-emails-off:<user id>" under
 * JWT_SECRET, base64url. A link does nothing else, never expires, and a new JWT_SECRET voids every one.
 */
export type EmailList = 'sale' | 'favorite';

const mac = (secret: string, list: EmailList, userId: string) =>
  createHmac('sha256', secret).update(`${list}-emails-off:${userId}`).digest('base64url');

const prefix: Record<EmailList, string> = { sale: '', favorite: 'favorites.' };

export function emailsOffUrl(
  site: Pick<Config, 'publicUrl' | 'jwtSecret'>,
  userId: string,
  list: EmailList,
): string {
  return `${site.publicUrl}/unsubscribe?t=${prefix[list]}${userId}.${mac(site.jwtSecret, list, userId)}`;
}

export const saleEmailsOffUrl = (site: Pick<Config, 'publicUrl' | 'jwtSecret'>, userId: string) =>
  emailsOffUrl(site, userId, 'sale');

/** The account and the list a token turns off; undefined unless the token is one of ours. */
export function emailsOffFor(secret: string, token: string): { userId: string; list: EmailList } | undefined {
  const parts = token.split('.');
  const list: EmailList = parts[0] === 'favorites' ? 'favorite' : 'sale';
  if (list === 'favorite') parts.shift();
  const [userId, given, ...rest] = parts;
  if (!userId || !given || rest.length > 0) return undefined;
  const expected = Buffer.from(mac(secret, list, userId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected)
    ? { userId, list }
    : undefined;
}
