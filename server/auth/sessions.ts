import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { SESSION_EXPIRED_TEXT } from '#domain/apiError';
import type { Clock } from '../clock';
import { type Database, type Executor, prepareNamed } from '../db';
import { sessions, users } from '../db/schema';
import { type UserRow, unauthorized } from '../http';
import type { Devices } from './devices';
import type { Tokens } from './tokens';
import { tokenDigest } from './tokens';

/**
 * Login sessions. Logging in opens a session row and answers a short-lived session token (a JWT
 * naming the session) plus a refresh token in an HTTP-only, same-site cookie scoped to
 * /api/auth/sessions. The refresh token is replaced on every use; the replaced one still works for
 * REFRESH_GRACE_MS (two tabs refreshing at once) and after that presenting it revokes the session,
 * since only a stolen copy would be used so late. Logging out, a password change or reset, and
 * blocking the user revoke sessions, and their tokens stop working at once. Opening a session also
 * gives the browser the user's device cookie (devices.ts).
 */
export const REFRESH_COOKIE = 'vitrine_session';
export const REFRESH_COOKIE_PATH = '/api/auth/sessions';
export const REFRESH_GRACE_MS = 30_000;

const newRefreshToken = () => randomBytes(32).toString('base64url');

/** The authenticator's lookup, run on every authenticated request (prepared once per Sessions). */
const prepareOpenUser = (db: Database) =>
  prepareNamed(
    db
      .select({ user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.id, sql.placeholder('sessionId')),
          eq(sessions.userId, sql.placeholder('userId')),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql.placeholder('now')),
        ),
      ),
    'sessions_open_user',
  );

/**
 * The authenticator's check as a condition of another statement (for routes with auth 'token'):
 * true while the token's session (placeholders sessionId, userId) is open (not revoked, not expired
 * at now) and its user is active with the token's version (tokenVersion).
 */
export const openSessionOf = () => sql<boolean>`exists (select 1 from ${sessions}
  inner join ${users} on ${users.id} = ${sessions.userId}
  where ${sessions.id} = ${sql.placeholder('sessionId')} and ${sessions.userId} = ${sql.placeholder('userId')}
    and ${sessions.revokedAt} is null and ${sessions.expiresAt} > ${sql.placeholder('now')}
    and ${users.status} = 'active' and ${users.tokenVersion} = ${sql.placeholder('tokenVersion')})`;

export interface SessionOptions {
  db: Database;
  clock: Clock;
  tokens: Tokens;
  devices: Devices;
  /** How long a session lasts without being refreshed. */
  ttlSeconds: number;
  /** Send the cookie only over HTTPS (when the public URL is https). */
  secureCookie: boolean;
}

export interface Sessions {
  /**
   * Opens a session for the user, sets its refresh cookie and the user's device cookie, and answers
   * its first session token.
   */
  start(c: Context, user: UserRow, tx?: Executor): Promise<string>;
  /** A new session token for the refresh cookie's session (and a replaced cookie); 401 otherwise. */
  refresh(c: Context): Promise<string>;
  /** Revokes the session of the bearer token's claims or of the refresh cookie, and clears the cookie. */
  end(c: Context, sessionId: string | undefined): Promise<void>;
  /** Revokes every open session of the user. */
  endAll(tx: Executor, userId: string): Promise<void>;
  /** The open session `sessionId` of `userId` with its active user, for the authenticator. */
  openUser(sessionId: string, userId: string): Promise<UserRow | undefined>;
}

/**
 * Rotates the session whose refresh token hashes to `hash` (its new token `next`), in one transaction. The token it
 * replaced is still accepted for REFRESH_GRACE_MS (without rotating again); presented later, it ends the session.
 * Nothing (undefined) for an unknown, revoked or expired token.
 */
function rotateSession(db: Database, hash: string, next: string, now: Date, ttlMs: number) {
  return db.transaction(async (tx) => {
    // Rotation is one conditional update: of two requests with the same token only one rotates.
    const [rotated] = await tx
      .update(sessions)
      .set({
        refreshHash: tokenDigest(next),
        previousHash: hash,
        refreshedAt: now,
        expiresAt: new Date(now.getTime() + ttlMs),
      })
      .where(and(eq(sessions.refreshHash, hash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .returning();
    if (rotated) return { session: rotated, rotated: true };
    const [replaced] = await tx.select().from(sessions).where(eq(sessions.previousHash, hash));
    if (!replaced || replaced.revokedAt || replaced.expiresAt <= now) return undefined;
    if (now.getTime() - replaced.refreshedAt.getTime() <= REFRESH_GRACE_MS)
      return { session: replaced, rotated: false };
    // A replaced refresh token presented late: someone else holds a copy. End the session.
    await tx.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, replaced.id));
    return undefined;
  });
}

export function createSessions(o: SessionOptions): Sessions {
  const ttlMs = o.ttlSeconds * 1000;
  const setRefreshCookie = (c: Context, token: string) =>
    setCookie(c, REFRESH_COOKIE, token, {
      path: REFRESH_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'Strict',
      secure: o.secureCookie,
      maxAge: o.ttlSeconds,
    });
  const clearRefreshCookie = (c: Context) =>
    deleteCookie(c, REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH, secure: o.secureCookie });

  let openUserQuery: ReturnType<typeof prepareOpenUser> | undefined;

  async function prune(tx: Executor, now: Date) {
    await tx.delete(sessions).where(lt(sessions.expiresAt, new Date(now.getTime() - ttlMs)));
  }

  return {
    async start(c, user, tx = o.db) {
      const now = o.clock();
      const refreshToken = newRefreshToken();
      const [row] = await tx
        .insert(sessions)
        .values({
          userId: user.id,
          refreshHash: tokenDigest(refreshToken),
          createdAt: now,
          refreshedAt: now,
          expiresAt: new Date(now.getTime() + ttlMs),
        })
        .returning({ id: sessions.id });
      await prune(tx, now);
      setRefreshCookie(c, refreshToken);
      await o.devices.remember(c, user);
      return o.tokens.issue(user, row!.id);
    },

    async refresh(c) {
      const presented = getCookie(c, REFRESH_COOKIE);
      if (!presented) throw unauthorized('Please log in');
      const now = o.clock();
      const hash = tokenDigest(presented);
      const next = newRefreshToken();
      const result = await rotateSession(o.db, hash, next, now, ttlMs);
      if (!result) {
        clearRefreshCookie(c);
        throw unauthorized(SESSION_EXPIRED_TEXT);
      }
      const [user] = await o.db.select().from(users).where(eq(users.id, result.session.userId));
      if (user?.status !== 'active') {
        clearRefreshCookie(c);
        throw unauthorized(SESSION_EXPIRED_TEXT);
      }
      if (result.rotated) setRefreshCookie(c, next);
      return o.tokens.issue(user, result.session.id);
    },

    async end(c, sessionId) {
      const now = o.clock();
      const presented = getCookie(c, REFRESH_COOKIE);
      const which = [
        ...(sessionId ? [eq(sessions.id, sessionId)] : []),
        ...(presented ? [eq(sessions.refreshHash, tokenDigest(presented))] : []),
      ];
      if (which.length > 0)
        await o.db
          .update(sessions)
          .set({ revokedAt: now })
          .where(and(or(...which), isNull(sessions.revokedAt)));
      clearRefreshCookie(c);
    },

    async endAll(tx, userId) {
      await tx
        .update(sessions)
        .set({ revokedAt: o.clock() })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    },

    async openUser(sessionId, userId) {
      openUserQuery ??= prepareOpenUser(o.db);
      const [row] = await openUserQuery.execute({ sessionId, userId, now: o.clock() });
      return row?.user;
    },
  };
}
