import { createHash } from 'node:crypto';
import { ErrorCode } from '#domain/errors';
import { Received } from '#domain/responses/common';
import { KycSession } from '#domain/responses/users';
import { KycSessionInput } from '#domain/schemas/kyc';
import type { Services } from '../deps';
import { identityDecisionEmail } from '../emails/identity';
import { apiError, defineRoute, type Route } from '../http';
import { queueEmail } from '../outbox';
import { applyKycDecision, identityOff, openKycSession } from './kyc';
import { findUserById, recordKycWebhook } from './queries';

/** The page the provider sends the person back to: their account settings, with the KYC row. */
export const KYC_RETURN_PATH = '/settings/account?kyc=returned';

/** Identity verification (KYC) through the identity provider: start a session, receive decisions. */
export function kycRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/veriff-kyc',
      tag: 'users',
      summary:
        'Start identity verification with the legal name: opens a provider session (or answers the open one) and returns where to verify',
      auth: 'required',
      body: KycSessionInput,
      response: KycSession,
      responses: {
        200: '{ url }: the provider’s hosted verification',
        400: 'FIRSTNAME_MISSING, LASTNAME_MISSING, INVALID_VALUE.firstName or .lastName',
        401: 'Missing, invalid or expired token',
        403: 'KYC_NO_NFTS: the account owns no collectible',
        409: 'KYC_CLOSED: the verification is approved, declined or in review',
        502: 'CREATE_KYC (the provider refused) or VERIFF_UNREACHABLE',
        503: 'unavailable: identity verification is off',
      },
      async handler(c, { body }) {
        const session = await openKycSession(
          {
            db: s.db,
            provider: s.identityProvider,
            clock: s.clock,
            callbackUrl: `${s.config.publicUrl}${KYC_RETURN_PATH}`,
          },
          c.get('user')!,
          body,
        );
        return c.json(session);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/webhooks/veriff',
      tag: 'users',
      summary:
        'Identity provider webhooks (X-HMAC-SIGNATURE: hex HMAC-SHA256 of the raw body with the shared secret): decisions are applied once, in decision order',
      response: Received,
      responses: {
        200: '{ received: true } — also for events (started, submitted) and decisions about sessions not ours',
        401: 'The signature does not match, or the body is not a webhook',
        503: 'Identity verification is off',
      },
      async handler(c) {
        const provider = s.identityProvider;
        if (!provider) throw identityOff();
        const raw = await c.req.text();
        const webhook = provider.verifyWebhook(raw, c.req.header('x-hmac-signature'));
        if (!webhook)
          throw apiError(401, ErrorCode.UNAUTHORIZED, undefined, 'The webhook signature does not match.');
        // Started and submitted events report progress only; the decision comes on its own.
        if (webhook.kind !== 'decision') return c.json({ received: true });
        const { decision } = webhook;
        // The provider names no delivery id: a repeat is the same body, so its hash is the key. The
        // record and the decision commit together.
        const id = `veriff:${createHash('sha256').update(raw).digest('hex')}`;
        // The person's email about it too.
        const outcome = await s.db.transaction(async (tx) => {
          if (!(await recordKycWebhook(tx, id, `decision:${decision.status}`, s.clock())))
            return 'duplicate' as const;
          const applied = await applyKycDecision(tx, decision, s.clock());
          const user = applied && (await findUserById(tx, applied.userId));
          const email = user && (await identityDecisionEmail(user, decision, s.config.publicUrl));
          if (email) await queueEmail(tx, email, s.clock());
          return applied;
        });
        if (outcome === 'duplicate') return c.json({ received: true, duplicate: true });
        return c.json({ received: true });
      },
    }),
  ];
}
