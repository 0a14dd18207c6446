import { ErrorCode } from '#domain/errors';
import { AccountProofAnswer, AccountProofChallenge } from '#domain/responses/users';
import { ACCOUNT_PROOF_APP_IDENTIFIER, AccountProofInput } from '#domain/schemas/wallets';
import {
  consumeNonce,
  issueNonce,
  NONCE_MAX_PER_ADDRESS,
  nonceSession,
  verifyAccountProof,
} from '../auth/wallet-proof';
import { secureCookies } from '../config';
import type { Services } from '../deps';
import { apiError, badRequest, defineRoute, forbidden, type Route, rateLimited } from '../http';
import { findUserByWallet } from './queries';

/** Wallet connection with an account proof (users/wallets/actions: ask for a nonce, then prove the account over it). */
export function walletRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/users/wallets/actions/request-account-proof',
      tag: 'wallets',
      summary:
        'A single-use nonce for the account proof a wallet signs when connecting; the same session asking again gets its outstanding nonce back',
      response: AccountProofChallenge,
      responses: {
        201: '{ appIdentifier, nonce } (nonce: 32 bytes hex, valid for 10 minutes); sets the nonce cookie of a browser without a session token',
        429: `RATE_LIMITED: the session holds no fresh nonce and the client address already holds ${NONCE_MAX_PER_ADDRESS} unused, unexpired nonces (Retry-After: until the oldest expires)`,
      },
      async handler(c) {
        const session = await nonceSession(c, s.tokens, secureCookies(s.config));
        const issued = await issueNonce(s.db, s.clock, { address: s.clientAddress(c), session });
        if ('retryAfterMs' in issued) throw rateLimited(issued.retryAfterMs);
        return c.json({ appIdentifier: ACCOUNT_PROOF_APP_IDENTIFIER, nonce: issued.nonce }, 201);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/users/wallets/actions/verify-account-proof',
      tag: 'wallets',
      summary:
        'Checks the account proof on chain; logs in the account holding the wallet, or answers a wallet proof to register or link it',
      body: AccountProofInput,
      response: AccountProofAnswer,
      responses: {
        200: '{ authToken } for the account holding the wallet, else { authToken: null, walletProof } (valid 15 minutes)',
        400: 'Invalid input, or BLOCTO_AUTHENTICATION: the nonce is unknown, used or expired',
        401: 'BLOCTO_AUTHENTICATION: the proof does not verify',
        403: 'The account holding the wallet is blocked or removed',
        503: 'No chain is configured',
      },
      async handler(c, { body }) {
        if (!s.chainClient) throw apiError(503, 'unavailable', undefined, 'The chain is not available.');
        if (!(await consumeNonce(s.db, s.clock, body.nonce))) {
          throw badRequest(ErrorCode.BLOCTO_AUTHENTICATION, 'nonce');
        }
        const proof = {
          address: body.walletAddress,
          nonce: body.nonce,
          keyId: body.keyId,
          signature: body.signature,
        };
        if (!(await verifyAccountProof(s.chainClient, proof))) {
          throw apiError(
            401,
            ErrorCode.BLOCTO_AUTHENTICATION,
            undefined,
            'The wallet could not prove this address.',
          );
        }
        const holder = await findUserByWallet(s.db, body.walletAddress);
        if (holder) {
          if (holder.status !== 'active') throw forbidden();
          return c.json({ authToken: await s.sessions.start(c, holder) });
        }
        return c.json({ authToken: null, walletProof: await s.walletProofs.issue(body.walletAddress) });
      },
    }),
  ];
}
