import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { jwtVerify, SignJWT } from 'jose';
import * as v from 'valibot';
import type { Clock } from '../clock';
import { hs256Key } from './tokens';

/**
 * Device cookies (OWASP, "slow down online guessing attacks with device cookies"). Opening a
 * session in a browser (login, registration, wallet sign-in, password change) gives it the
 * HTTP-only cookie vitrine_device: an HS256 token naming the user (id and token version) and a
 * random device id, sent only to the login route, for a year. A login presenting the device cookie
 * of the account it signs in to is a trusted client (login-limit.ts). A password change or reset
 * (a new token version) voids the user's device cookies; a browser holds one, of the account that
 * signed in last.
 */
export const DEVICE_COOKIE = 'vitrine_device';
export const DEVICE_COOKIE_PATH = '/api/auth/logins';
export const DEVICE_TTL_SECONDS = 365 * 24 * 3600;

const Claims = v.object({
  purpose: v.literal('device'),
  sub: v.pipe(v.string(), v.uuid()),
  tv: v.pipe(v.number(), v.integer()),
  jti: v.pipe(v.string(), v.regex(/^[\w-]{22}$/)),
});

interface DeviceUser {
  id: string;
  tokenVersion: number;
}

export interface Devices {
  /** The device id of the request's device cookie when it names this user at their token version. */
  recognise(c: Context, user: DeviceUser): Promise<string | undefined>;
  /** Gives the browser a new device cookie for the user. */
  remember(c: Context, user: DeviceUser): Promise<void>;
}

export function createDevices(secret: string, clock: Clock, secureCookie: boolean): Devices {
  const key = hs256Key(secret);
  return {
    async recognise(c, user) {
      const token = getCookie(c, DEVICE_COOKIE);
      if (!token) return undefined;
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          currentDate: clock(),
        });
        const claims = v.safeParse(Claims, payload);
        if (!claims.success) return undefined;
        const { sub, tv, jti } = claims.output;
        return sub === user.id && tv === user.tokenVersion ? jti : undefined;
      } catch {
        return undefined;
      }
    },
    async remember(c, user) {
      const now = Math.floor(clock().getTime() / 1000);
      const token = await new SignJWT({ purpose: 'device', tv: user.tokenVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setJti(randomBytes(16).toString('base64url'))
        .setIssuedAt(now)
        .setExpirationTime(now + DEVICE_TTL_SECONDS)
        .sign(await key);
      setCookie(c, DEVICE_COOKIE, token, {
        path: DEVICE_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'Strict',
        secure: secureCookie,
        maxAge: DEVICE_TTL_SECONDS,
      });
    },
  };
}
