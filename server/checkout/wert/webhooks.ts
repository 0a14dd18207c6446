import { eq } from 'drizzle-orm';
import type { Database } from '../../db';
import { webhookEvents, wertCharges } from '../../db/schema';
import type { OnrampOrder, OnrampProvider } from '../../payments/onramp-provider';
import { settleWert, type WertSettleOutcome } from './settle';
import { takeWertLookup, type WertLookups } from './webhook-lookups';
import { confirmsPurchase, FAILOVER, statusOf } from './wert';

/**
 * The provider's webhooks: unsigned, so each is only a reason to ask the provider for the order
 * (coalesced and throttled: webhook-lookups.ts); a delivery is applied once (webhook_events) and
 * only what the provider confirms is settled.
 */

/**
 * What each order webhook claims, as the provider's order must confirm it. Other event types
 * (registration, login, verify_*, card_added, …) are answered and ignored.
 */
const CLAIMS: Record<string, (po: OnrampOrder) => boolean> = {
  payment_started: (po) => po.status === 'pending',
  transfer_started: (po) => po.status === 'pending' && po.txId !== null,
  order_complete: (po) => po.status === 'success',
  order_failed: (po) => po.status === 'failed',
  order_canceled: (po) => po.status === 'canceled',
  // The contract call failed: the provider's order is failing over, or has since.
  tx_smart_contract_failed: (po) => FAILOVER.has(statusOf(po) ?? ''),
  failover_complete: (po) => po.status === 'failover_complete',
  failover_cancelled: (po) => po.status === 'failover_cancelled',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type WertWebhookResult =
  | { kind: 'invalid' }
  | { kind: 'ignored'; reason: string }
  | { kind: 'unconfirmed' }
  /** A repeat of a delivery not confirmed within the last seconds: to be retried (429). */
  | { kind: 'repeat'; retryAfterMs: number }
  | { kind: 'duplicate' }
  | { kind: 'applied'; outcome: WertSettleOutcome };

export interface WertDelivery {
  raw: string;
  /** The client address it came from (throttled: webhook-lookups.ts). */
  clientAddress: string;
  clock: () => Date;
  lookups: WertLookups;
}

/**
 * One webhook delivery (unsigned JSON `{ type, click_id, order: { id, … } }`): a hint. The charge
 * is found by click_id (none: nothing is asked); the provider is asked for the order, or a recent
 * answer reused (`lookups`; 429 RATE_LIMITED past the throttle, OnrampProviderUnavailableError when
 * it cannot be asked: the caller answers 5xx and the provider retries); the event is applied only
 * when the provider confirms what it claims, and each confirmed (order, type) once — its key goes
 * into `webhook_events` in the transaction of its effect, so a replay finds it and does nothing.
 */
export async function receiveWertWebhook(
  db: Database,
  provider: OnrampProvider,
  delivery: WertDelivery,
): Promise<WertWebhookResult> {
  const { raw, clock } = delivery;
  // biome-ignore lint/suspicious/noExplicitAny: an unsigned body read field by field
  let body: any;
  try {
    body = JSON.parse(raw);
  } catch {
    return { kind: 'invalid' };
  }
  if (!body || typeof body !== 'object' || Array.isArray(body) || typeof body.type !== 'string')
    return { kind: 'invalid' };
  const claim = CLAIMS[body.type];
  if (!claim) return { kind: 'ignored', reason: 'not an order event' };
  const clickId = typeof body.click_id === 'string' ? body.click_id : '';
  const orderRef = body.order?.id ?? body.order_id;
  const providerOrderId =
    typeof orderRef === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(orderRef) ? orderRef : null;
  if (!UUID.test(clickId)) return { kind: 'ignored', reason: 'no charge of ours' };
  const [row] = await db.select().from(wertCharges).where(eq(wertCharges.id, clickId));
  if (!row) return { kind: 'ignored', reason: 'no charge of ours' };
  const answer = await delivery.lookups.lookUp(
    row.id,
    `${providerOrderId ?? ''}:${body.type}`,
    async () => {
      await takeWertLookup(db, clock(), row.id, delivery.clientAddress);
      return provider.findOrders(providerOrderId ?? row.id);
    },
    (found) =>
      found.find(
        (o) =>
          o.clickId === row.id &&
          (providerOrderId === null || o.id === providerOrderId) &&
          claim(o) &&
          confirmsPurchase(row, o),
      ),
  );
  if (answer.kind === 'repeat') return answer;
  const po = answer.confirmed;
  if (!po) return { kind: 'unconfirmed' };
  const now = clock();
  const result = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(webhookEvents)
      .values({ id: `wert:${po.id}:${body.type}`, provider: 'wert', type: body.type, receivedAt: now })
      .onConflictDoNothing({ target: webhookEvents.id })
      .returning({ id: webhookEvents.id });
    if (inserted.length === 0) return 'duplicate' as const;
    return settleWert(tx, row.id, po, now);
  });
  return result === 'duplicate' ? { kind: 'duplicate' } : { kind: 'applied', outcome: result };
}
