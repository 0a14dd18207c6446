import { eq } from 'drizzle-orm';
import { ErrorCode } from '#domain/errors';
import { Received } from '#domain/responses/common';
import { cardCharges, webhookEvents } from '../../db/schema';
import type { Services } from '../../deps';
import { apiError, badRequest, defineRoute, type Route } from '../../http';
import type { ProviderPayment, ProviderWebhookEvent } from '../../payments/provider';
import { settle, voidFailedOrder } from './settle';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Events that may settle an unpaid order; the others are the checkout's own actions. */
const SETTLING = new Set([
  'payment_approved',
  'payment_authorized',
  'payment_declined',
  'payment_expired',
  'payment_canceled',
  'payment_pending',
  'payment_authentication_failed',
]);

function readEvent(raw: string): ProviderWebhookEvent | null {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return null;
  }
  const e = body as Partial<ProviderWebhookEvent> | null;
  if (!e || typeof e !== 'object' || typeof e.id !== 'string' || typeof e.type !== 'string') return null;
  if (e.id.length === 0 || e.id.length > 100 || e.type.length > 100) return null;
  if (!e.data || typeof e.data !== 'object' || typeof e.data.id !== 'string') return null;
  return e as ProviderWebhookEvent;
}

/** The order of the charge an event is about: by payment id, else by our reference. */
async function chargeOrder(s: Services, event: ProviderWebhookEvent): Promise<string | undefined> {
  const [byPayment] = await s.db
    .select({ orderId: cardCharges.orderId })
    .from(cardCharges)
    .where(eq(cardCharges.paymentId, event.data.id));
  if (byPayment) return byPayment.orderId;
  const reference = event.data.reference;
  if (!reference || !UUID.test(reference)) return undefined;
  const [byReference] = await s.db
    .select({ orderId: cardCharges.orderId })
    .from(cardCharges)
    .where(eq(cardCharges.orderId, reference));
  return byReference?.orderId;
}

/**
 * Card provider webhooks (Checkout.com's signed deliveries, at least once). The signature is
 * checked on the raw body (401 and nothing changes when it does not match); each event id is
 * handled once (webhook_events, written in the same transaction as the event's effect: a repeat
 * answers 200 and does nothing); a payment event is applied by asking the provider for the payment
 * and settling its order, the same way as a sync.
 */
export function cardWebhookRoute(s: Services): Route {
  return defineRoute({
    method: 'post',
    path: '/webhooks/checkout-com',
    tag: 'checkout',
    summary:
      'Card provider events (Cko-Signature: hex HMAC-SHA256 of the raw body); each event id is applied once',
    response: Received,
    responses: {
      200: '{ received: true }',
      400: 'Not an event',
      401: 'The signature does not match',
      502: 'The provider could not be asked about the payment (the delivery is retried)',
      503: 'Card payments are off',
    },
    async handler(c) {
      const provider = s.cardProvider;
      if (!provider) throw apiError(503, 'unavailable', undefined, 'Card payments are not available.');
      const raw = await c.req.text();
      if (!provider.verifyWebhook(raw, c.req.header('cko-signature'))) {
        throw apiError(401, ErrorCode.UNAUTHORIZED, undefined, 'The webhook signature does not match.');
      }
      const event = readEvent(raw);
      if (!event) throw badRequest(ErrorCode.INVALID_VALUE, undefined, 'The body is not a provider event.');

      // A payment event names its charge by payment id, or by our reference (the order) when the
      // webhook overtook the provider's answer to the create request; the payment is read from
      // the provider before anything is written (unreachable → 502, and the delivery is retried).
      let settling: { orderId: string; payment: ProviderPayment } | null = null;
      if (SETTLING.has(event.type)) {
        const orderId = await chargeOrder(s, event);
        if (orderId) {
          try {
            settling = { orderId, payment: await provider.getPayment(event.data.id) };
          } catch {
            throw apiError(502, ErrorCode.PAYMENT_PROVIDER);
          }
        }
      }
      // Each event once, and together with its effect: the event's row and the settlement commit
      // in one transaction, so a repeated (or concurrent) delivery finds the row and does nothing,
      // and a crash before the commit leaves neither, for the provider's retry to apply.
      const outcome = await s.db.transaction(async (tx) => {
        const inserted = await tx
          .insert(webhookEvents)
          .values({ id: event.id, provider: 'checkout.com', type: event.type, receivedAt: s.clock() })
          .onConflictDoNothing({ target: webhookEvents.id })
          .returning({ id: webhookEvents.id });
        if (inserted.length === 0) return 'duplicate' as const;
        const settled = settling ? await settle(tx, settling.orderId, settling.payment, s.clock()) : null;
        if (settled?.kind === 'authorized') s.crashPoint?.('webhook');
        return settled;
      });
      if (outcome === 'duplicate') return c.json({ received: true, duplicate: true });
      if (outcome && settling) {
        if (outcome.kind === 'authorized' || outcome.kind === 'refused' || outcome.kind === 'compensate')
          s.jobs?.nudge();
        if (outcome.kind === 'refused' || outcome.kind === 'compensate') {
          // The fulfil job voids it too if this fails.
          await voidFailedOrder(s.db, provider, settling.orderId, s.clock).catch(() => undefined);
        }
      }
      return c.json({ received: true });
    },
  });
}
