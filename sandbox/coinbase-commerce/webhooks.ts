import { createHmac, randomUUID } from 'node:crypto';
import { postWebhook } from '../http';
import { chargeJson } from './store';
import { API_VERSION, type Charge, type CoinbaseSandbox, iso, MAX_ENTRIES, type Status } from './types';

/** The event type for the status just entered (legacy contract). */
function eventTypeOf(status: Status, context: string | undefined): string {
  switch (status) {
    case 'NEW':
      return 'charge:created';
    case 'PENDING':
      return 'charge:pending';
    case 'COMPLETED':
      return 'charge:confirmed';
    case 'RESOLVED':
      return 'charge:resolved';
    case 'UNRESOLVED':
      // A payment after expiry is "delayed"; any other unresolved charge "failed to complete".
      return context === 'DELAYED' ? 'charge:delayed' : 'charge:failed';
    default:
      // EXPIRED and CANCELED.
      return 'charge:failed';
  }
}

interface Outgoing {
  envelopeId: number;
  event: {
    id: string;
    resource: 'event';
    type: string;
    api_version: string;
    created_at: string;
    data: unknown;
  };
}

/**
 * Posts every status change to the webhook URL (none: nothing is sent), each `copies` times, signed
 * with `X-CC-Webhook-Signature` (lowercase hex HMAC-SHA256 of the raw body with the shared secret),
 * and retries a delivery answered with anything but 2xx (or not at all) on the schedule.
 */
export function createEmitter(options: {
  webhookUrl: () => string | undefined;
  secret: string;
  retrySchedule: number[];
  copies: number;
  now: () => Date;
  origin: () => string;
  closed: () => boolean;
  later: (ms: number, run: () => void) => void;
  deliveries: CoinbaseSandbox['deliveries'];
}): (c: Charge) => void {
  const { secret, retrySchedule, copies, now, later, deliveries } = options;
  let envelopeSeq = 0;

  async function deliver(out: Outgoing, attempt: number) {
    const webhookUrl = options.webhookUrl();
    if (options.closed() || !webhookUrl) return;
    // The envelope names the attempt, so each attempt is its own body, signed on its own.
    const body = JSON.stringify({
      id: out.envelopeId,
      scheduled_for: iso(now()),
      attempt_number: attempt + 1,
      event: out.event,
    });
    const status = await postWebhook(webhookUrl, body, {
      'X-CC-Webhook-Signature': createHmac('sha256', secret).update(body, 'utf8').digest('hex'),
    });
    deliveries.push({ id: out.event.id, type: out.event.type, status });
    if (deliveries.length > MAX_ENTRIES) deliveries.shift();
    if ((status < 200 || status >= 300) && attempt < retrySchedule.length) {
      later(retrySchedule[attempt]! * 1000, () => void deliver(out, attempt + 1));
    }
  }

  function emit(c: Charge) {
    if (!options.webhookUrl()) return;
    const last = c.timeline.at(-1)!;
    const event: Outgoing['event'] = {
      id: randomUUID(),
      resource: 'event',
      type: eventTypeOf(last.status, last.context),
      api_version: API_VERSION,
      created_at: iso(now()),
      data: chargeJson(c, options.origin()),
    };
    // Each copy is a delivery of its own (its own envelope id, retried on its own) of the same event:
    // the receiver tells repeats apart by `event.id`.
    for (let i = 0; i < copies; i++) void deliver({ envelopeId: ++envelopeSeq, event }, 0);
  }

  return emit;
}
