import { randomBytes } from 'node:crypto';
import { WalletUtils } from '@onflow/fcl';
import { and, asc, desc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { jwtVerify, SignJWT } from 'jose';
import * as v from 'valibot';
import { ACCOUNT_PROOF_APP_IDENTIFIER } from '#domain/schemas/wallets';
import type { FlowClient } from '../chain/client';
import type { Clock } from '../clock';
import type { Database } from '../db';
import { walletNonces } from '../db/schema';
import { bearerToken } from './session';
import { hs256Key, type Tokens, tokenDigest } from './tokens';

/**
 * Wallet connection: a single-use nonce, the wallet's account proof over it checked by
 * FCLCrypto on chain, and, for a wallet no account holds yet, a short-lived wallet proof that lets
 * registration or Settings → Wallet link that address.
 */
export const NONCE_TTL_MS = 10 * 60 * 1000;
export const WALLET_PROOF_TTL_SECONDS = 15 * 60;
/**
 * A session that asks again while it holds an unused nonce with at least NONCE_REUSE_MIN_MS left
 * gets that nonce back instead of a new one, so clicking "connect" again and again costs nothing.
 * A session is the signed-in session of a valid bearer token, else the browser's nonce cookie.
 */
export const NONCE_REUSE_MIN_MS = 5 * 60 * 1000;
/**
 * New nonces are capped per client address: one address may hold this many outstanding (unused,
 * unexpired) nonces; asking for another from a session holding none is refused until one of them
 * is used or expires.
 */
export const NONCE_MAX_PER_ADDRESS = 20;
/**
 * Expired and used nonces deleted by each issue. An issue adds one row and deletes up to this many
 * dead ones, so dead nonces never pile up.
 */
export const NONCE_PRUNE_BATCH = 50;
/** First key (a 32-bit class) of the advisory lock that makes one address's issues take turns. */
const NONCE_LOCK = 74_617_002;

/**
 * The cookie naming a browser that asked for a nonce without a session token: 16 random bytes,
 * HTTP-only, same-site, sent only to the wallet actions, ending with the browser session.
 */
export const NONCE_COOKIE = 'vitrine_wallet_session';
export const NONCE_COOKIE_PATH = '/api/users/wallets/actions';
const BrowserId = v.pipe(v.string(), v.regex(/^[\w-]{22}$/));

/**
 * The session asking for a nonce (the SHA-256 of its name): the signed-in session of a valid
 * bearer token, else the browser of the nonce cookie, which is set here when missing or malformed.
 */
export async function nonceSession(c: Context, tokens: Tokens, secureCookie: boolean): Promise<string> {
  const bearer = bearerToken(c.req.header('authorization'));
  const claims = bearer ? await tokens.verify(bearer) : undefined;
  if (claims) return tokenDigest(`session:${claims.sid}`);
  let browser = getCookie(c, NONCE_COOKIE);
  if (!v.is(BrowserId, browser)) {
    browser = randomBytes(16).toString('base64url');
    setCookie(c, NONCE_COOKIE, browser, {
      path: NONCE_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'Strict',
      secure: secureCookie,
    });
  }
  return tokenDigest(`browser:${browser}`);
}

export type IssuedNonce = { nonce: string } | { retryAfterMs: number };

/**
 * The nonce for `session` asking from `address`: its own outstanding one with at least
 * NONCE_REUSE_MIN_MS left, else a new one, or, when that address already holds
 * NONCE_MAX_PER_ADDRESS outstanding nonces, how long until the oldest of them expires. Deletes a
 * batch of expired and used nonces first.
 */
export async function issueNonce(
  db: Database,
  clock: Clock,
  { address, session }: { address: string; session: string },
): Promise<IssuedNonce> {
  const now = clock();
  await pruneNonces(db, now);
  return db.transaction(async (tx) => {
    // Issues for one address take turns, so concurrent requests cannot go past the cap.
    await tx.execute(sql`select pg_advisory_xact_lock(${NONCE_LOCK}::int, hashtext(${address}))`);
    const [held] = await tx
      .select({ nonce: walletNonces.nonce })
      .from(walletNonces)
      .where(
        and(
          eq(walletNonces.session, session),
          isNull(walletNonces.usedAt),
          gt(walletNonces.expiresAt, new Date(now.getTime() + NONCE_REUSE_MIN_MS)),
        ),
      )
      .orderBy(desc(walletNonces.expiresAt))
      .limit(1);
    if (held) return { nonce: held.nonce };
    const outstanding = await tx
      .select({ expiresAt: walletNonces.expiresAt })
      .from(walletNonces)
      .where(
        and(eq(walletNonces.address, address), isNull(walletNonces.usedAt), gt(walletNonces.expiresAt, now)),
      )
      .orderBy(asc(walletNonces.expiresAt))
      .limit(NONCE_MAX_PER_ADDRESS);
    if (outstanding.length >= NONCE_MAX_PER_ADDRESS) {
      return { retryAfterMs: outstanding[0]!.expiresAt.getTime() - now.getTime() };
    }
    const nonce = randomBytes(32).toString('hex');
    await tx.insert(walletNonces).values({
      nonce,
      address,
      session,
      createdAt: now,
      expiresAt: new Date(now.getTime() + NONCE_TTL_MS),
    });
    return { nonce };
  });
}

/** Deletes up to NONCE_PRUNE_BATCH nonces that can no longer be used (a used one expires when used). */
export async function pruneNonces(db: Database, now: Date): Promise<void> {
  const dead = db
    .select({ nonce: walletNonces.nonce })
    .from(walletNonces)
    .where(lte(walletNonces.expiresAt, now))
    .limit(NONCE_PRUNE_BATCH);
  await db.delete(walletNonces).where(inArray(walletNonces.nonce, dead));
}

/** Marks the nonce used (and expired, for pruning); false when it is unknown, used or expired. */
export async function consumeNonce(db: Database, clock: Clock, nonce: string): Promise<boolean> {
  const now = clock();
  const used = await db
    .update(walletNonces)
    .set({ usedAt: now, expiresAt: now })
    .where(and(eq(walletNonces.nonce, nonce), isNull(walletNonces.usedAt), gt(walletNonces.expiresAt, now)))
    .returning({ nonce: walletNonces.nonce });
  return used.length === 1;
}

/** Whether `signature` by key `keyId` of `address` signs the account proof of `nonce`. */
export async function verifyAccountProof(
  client: FlowClient,
  proof: { address: string; nonce: string; keyId: number; signature: string },
): Promise<boolean> {
  const message = WalletUtils.encodeAccountProof(
    { address: proof.address, nonce: proof.nonce, appIdentifier: ACCOUNT_PROOF_APP_IDENTIFIER },
    false,
  );
  try {
    return await client.query<boolean>('scripts/verify_account_proof.cdc', (arg, t) => [
      arg(proof.address, t.Address),
      arg(message, t.String),
      arg([String(proof.keyId)], t.Array(t.Int)),
      arg([proof.signature.toLowerCase()], t.Array(t.String)),
    ]);
  } catch {
    // A key index the account lacks, or a malformed signature, fails verification in Cadence.
    return false;
  }
}

export interface WalletProofs {
  /** A proof that the holder controls `walletAddress`, for linking it to an account. */
  issue(walletAddress: string): Promise<string>;
  /** The address a valid, unexpired proof speaks for; undefined otherwise. */
  verify(token: string): Promise<string | undefined>;
}

export function createWalletProofs(secret: string, clock: Clock): WalletProofs {
  const key = hs256Key(secret);
  return {
    async issue(walletAddress) {
      const now = Math.floor(clock().getTime() / 1000);
      return new SignJWT({ purpose: 'wallet', walletAddress })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(now)
        .setExpirationTime(now + WALLET_PROOF_TTL_SECONDS)
        .sign(await key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          currentDate: clock(),
        });
        return payload.purpose === 'wallet' && typeof payload.walletAddress === 'string'
          ? payload.walletAddress
          : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
