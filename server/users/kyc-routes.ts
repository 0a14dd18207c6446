import { createHash } from 'node:crypto';
import { ErrorCode } from '#domain/errors';
import { KycSessionInput } from '#domain/schemas/kyc';
import type { Services } from '../deps';
import { apiError, defineRoute, type Route, type UserRow } from '../http';
import type { IdentityDecision } from '../identity/veriff';
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
        const outcome = await s.db.transaction(async (tx) => {
          if (!(await recordKycWebhook(tx, id, `decision:${decision.status}`, s.clock())))
            return 'duplicate' as const;
          return applyKycDecision(tx, decision, s.clock());
        });
        if (outcome === 'duplicate') return c.json({ received: true, duplicate: true });
        if (outcome) {
          const user = await findUserById(s.db, outcome.userId);
          const email = user && decisionEmail(user, decision, s.config.publicUrl);
          if (email) await s.outbox.send(email);
        }
        return c.json({ received: true });
      },
    }),
  ];
}

/** The email a decision sends: approved, declined and resubmission requested tell the person. */
function decisionEmail(user: UserRow, decision: IdentityDecision, publicUrl: string) {
  const link = `${publicUrl}/settings/account`;
  const texts: Partial<Record<IdentityDecision['status'], { subject: string; body: string }>> = {
    approved: {
      subject: 'Your identity is verified',
      body: 'Your identity verification is approved. You can now list your collectibles for sale.',
    },
    declined: {
      subject: 'We could not verify your identity',
      body: `Your identity verification was declined${decision.reason ? ` (${decision.reason})` : ''}. Write to support if you think this is a mistake.`,
    },
    resubmission_requested: {
      subject: 'Please retry your identity verification',
      body: `Your identity verification needs another try${decision.reason ? ` (${decision.reason})` : ''}. Open your account settings and press "Retry KYC".`,
    },
  };
  const text = texts[decision.status];
  if (!text) return null;
  return {
    to: user.email,
    subject: text.subject,
    text: [`Hello ${user.firstName},`, '', text.body, '', link].join('\n'),
    link,
  };
}
