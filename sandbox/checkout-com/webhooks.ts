import { createHmac } from 'node:crypto';
import { postWebhook } from '../http';
import { sourceJson } from './store';
import { MAX_ENTRIES, newId, type Payment, type Sandbox, type Status } from './types';

const eventTypes: Partial<Record<Status, string>> = {
  Pending: 'payment_pending',
  Authorized: 'payment_approved',
  'Card Verified': 'card_verified',
  Declined: 'payment_declined',
  Captured: 'payment_captured',
  Voided: 'payment_voided',
  Refunded: 'payment_refunded',
  Expired: 'payment_expired',
};

/**
 * Posts every payment change to the webhook URL (none: nothing is sent), each `copies` times,
 * signed with `Cko-Signature` (hex HMAC-SHA256 of the raw body with the signature key), and retries
 * a delivery answered with anything but 2xx (or not at all) on the schedule.
 */
export function createEmitter(options: {
  webhookUrl: () => string | undefined;
  signatureKey: string;
  retrySchedule: number[];
  copies: number;
  now: () => Date;
  origin: () => string;
  closed: () => boolean;
  timers: Set<NodeJS.Timeout>;
  deliveries: Sandbox['deliveries'];
}): (payment: Payment) => void {
  const { signatureKey, retrySchedule, copies, now, timers, deliveries } = options;

  async function deliver(event: { id: string; type: string }, body: string, attempt: number) {
    const webhookUrl = options.webhookUrl();
    if (options.closed() || !webhookUrl) return;
    const status = await postWebhook(webhookUrl, body, {
      'Cko-Signature': createHmac('sha256', signatureKey).update(body).digest('hex'),
    });
    deliveries.push({ ...event, status });
    if (deliveries.length > MAX_ENTRIES) deliveries.shift();
    if ((status < 200 || status >= 300) && attempt < retrySchedule.length && !options.closed()) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        void deliver(event, body, attempt + 1);
      }, retrySchedule[attempt]! * 1000);
      timers.add(timer);
    }
  }

  function emit(payment: Payment) {
    const type = eventTypes[payment.status];
    if (!type || !options.webhookUrl()) return;
    const event = {
      id: newId('evt'),
      type,
      version: '1.0.29',
      created_on: now().toISOString(),
      data: {
        id: payment.id,
        action_id: payment.actionId,
        reference: payment.reference,
        amount: payment.amount,
        currency: payment.currency,
        response_code: payment.responseCode,
        response_summary: payment.responseSummary,
        processed_on: payment.processedOn?.toISOString(),
        metadata: payment.metadata,
        source: sourceJson(payment),
      },
      _links: {
        self: { href: `${options.origin()}/workflows/events/${newId('evt')}` },
        payment: { href: `${options.origin()}/payments/${payment.id}` },
      },
    };
    const body = JSON.stringify(event);
    for (let i = 0; i < copies; i++) void deliver(event, body, 0);
  }

  return emit;
}
