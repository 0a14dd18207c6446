import { eq } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import { Received } from '#domain/responses/common';
import { coinbaseCharges, webhookEvents } from '../../db/schema';
import type { Services } from '../../deps';
import { apiError, defineRoute, type Route } from '../../http';
import type { CryptoCharge } from '../../payments/crypto-provider';
import { settleCrypto } from './charges';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Our crypto charge an event is about: by the provider's charge id, else by our metadata. */
async function cryptoChargeOf(s: Services, charge: CryptoCharge): Promise<string | undefined> {
  const [byProvider] = await s.db
    .select({ id: coinbaseCharges.id })
    .from(coinbaseCharges)
    .where(eq(coinbaseCharges.providerChargeId, charge.id));
  if (byProvider) return byProvider.id;
  const ours = charge.metadata.vitrineChargeId;
  if (!ours || !UUID.test(ours)) return undefined;
  const [byMetadata] = await s.db
    .select({ id: coinbaseCharges.id })
    .from(coinbaseCharges)
    .where(eq(coinbaseCharges.id, ours));
  return byMetadata?.id;
}

/**
 * Crypto provider webhooks (Coinbase Commerce's signed deliveries, at least once): the signature is
 * checked on the raw body (401 and nothing changes when it does not match); each event id is applied
 * once, its record and its effect in one transaction.
 */
export function cryptoWebhookRoute(s: Services): Route {
  return defineRoute({
    method: 'post',
    path: '/webhooks/coinbase-commerce',
    tag: 'checkout',
    summary:
      'Crypto provider events (X-CC-Webhook-Signature: lowercase hex HMAC-SHA256 of the raw body); each event id is applied once',
    response: Received,
    responses: {
      200: '{ received: true }',
      401: 'The signature does not match, or the body is not an event',
      503: 'Crypto payments are off',
    },
    async handler(c) {
      const provider = s.cryptoProvider;
      if (!provider) throw apiError(503, 'unavailable', undefined, 'Crypto payments are not available.');
      const raw = await c.req.text();
      const event = provider.verifyWebhook(raw, c.req.header('x-cc-webhook-signature'));
      if (!event)
        throw apiError(401, ErrorCode.UNAUTHORIZED, undefined, 'The webhook signature does not match.');
      const chargeId = await cryptoChargeOf(s, event.charge);
      // The event's record and its effect commit together (see the card webhook below).
      const outcome = await s.db.transaction(async (tx) => {
        const inserted = await tx
          .insert(webhookEvents)
          .values({ id: `cc:${event.id}`, provider: 'coinbase', type: event.type, receivedAt: s.clock() })
          .onConflictDoNothing({ target: webhookEvents.id })
          .returning({ id: webhookEvents.id });
        if (inserted.length === 0) return 'duplicate' as const;
        return chargeId ? settleCrypto(tx, chargeId, event.charge, s.clock()) : null;
      });
      if (outcome === 'duplicate') return c.json({ received: true, duplicate: true });
      if (outcome && outcome.kind !== 'unchanged') s.jobs?.nudge();
      return c.json({ received: true });
    },
  });
}
