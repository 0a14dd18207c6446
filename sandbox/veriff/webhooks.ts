import { postWebhook } from '../http';
import { hmac } from './signing';
import { MAX_ENTRIES, type VeriffSandbox } from './types';

type Meta = Omit<VeriffSandbox['deliveries'][number], 'http'>;

/**
 * Sends a webhook to a URL (none: nothing is sent), each `copies` times, signed with
 * `X-HMAC-SIGNATURE` (hex HMAC-SHA256 of the raw body with the shared secret) and sent with
 * `X-AUTH-CLIENT`; a delivery answered with anything but 2xx (or not at all) is retried on the
 * schedule.
 */
export function createSender(options: {
  apiKey: string;
  secret: string;
  retrySchedule: number[];
  copies: number;
  later: (ms: number, run: () => void) => void;
  closed: () => boolean;
  deliveries: VeriffSandbox['deliveries'];
}): (url: string | undefined, body: unknown, meta: Meta) => Promise<void> {
  const { apiKey, secret, retrySchedule, copies, later, deliveries } = options;

  async function post(url: string, body: string, meta: Meta, attempt: number) {
    if (options.closed()) return;
    const http = await postWebhook(url, body, {
      'X-AUTH-CLIENT': apiKey,
      'X-HMAC-SIGNATURE': hmac(secret, body),
    });
    deliveries.push({ ...meta, http });
    if (deliveries.length > MAX_ENTRIES) deliveries.shift();
    if ((http < 200 || http >= 300) && attempt < retrySchedule.length)
      later(retrySchedule[attempt]! * 1000, () => void post(url, body, meta, attempt + 1));
  }

  /** Every copy's first attempt, awaited; retries run on their own. */
  const send = (url: string | undefined, body: unknown, meta: Meta) =>
    url
      ? Promise.all(Array.from({ length: copies }, () => post(url, JSON.stringify(body), meta, 0))).then(
          () => undefined,
        )
      : Promise.resolve();

  return send;
}
