import * as v from 'valibot';
import { ErrorCode } from '#domain/errors';
import { Received } from '#domain/responses/common';
import type { Services } from '../../deps';
import { apiError, badRequest, defineRoute, type Route, rateLimited } from '../../http';
import { OnrampProviderUnavailableError } from '../../payments/onramp-provider';
import { createWertLookups } from './webhook-lookups';
import { receiveWertWebhook } from './webhooks';

/** On-ramp provider webhooks (Wert's unsigned deliveries, each confirmed with the provider). */
export function wertWebhookRoute(s: Services): Route {
  const wertLookups = createWertLookups(s.clock);
  return defineRoute({
    method: 'post',
    path: '/webhooks/wert',
    tag: 'checkout',
    summary:
      'On-ramp provider events (unsigned: each is confirmed by reading the order from the provider); each confirmed event is applied once',
    // An event is a JSON object naming its type; the rest is read from the raw body (below).
    body: v.object({ type: v.string('INVALID_VALUE.type') }),
    response: Received,
    responses: {
      200: '{ received: true } — also for events ignored (not about an order of ours: nothing is asked) or not confirmed by the provider',
      400: 'Not an event',
      429: 'RATE_LIMITED with Retry-After, the provider not asked: past 30 lookups for the charge in an hour or 120 from the client address in a minute; or a repeat, within 5 s, of a delivery the provider did not confirm (the delivery is retried)',
      502: 'The provider could not be asked about the order (the delivery is retried)',
      503: 'The on-ramp is off',
    },
    async handler(c) {
      const provider = s.onrampProvider;
      if (!provider)
        throw apiError(503, 'unavailable', undefined, 'Card-to-crypto payments are not available.');
      // Wert signs nothing: whatever the body says is a hint, checked against the provider's
      // Data API before anything is written (server/checkout/wert/webhooks.ts). Answer 2xx for every event
      // we do not act on, or the provider counts a failure (and, after five, stops delivering).
      // The asking is coalesced and throttled (server/checkout/wert/webhook-lookups.ts).
      let result: Awaited<ReturnType<typeof receiveWertWebhook>>;
      try {
        result = await receiveWertWebhook(s.db, provider, {
          raw: await c.req.text(),
          clientAddress: s.clientAddress(c),
          clock: s.clock,
          lookups: wertLookups,
        });
      } catch (err) {
        if (err instanceof OnrampProviderUnavailableError) throw apiError(502, ErrorCode.ONRAMP_PROVIDER);
        throw err;
      }
      switch (result.kind) {
        case 'invalid':
          throw badRequest(ErrorCode.INVALID_VALUE, undefined, 'The body is not a provider event.');
        case 'ignored':
          return c.json({ received: true, ignored: result.reason });
        case 'unconfirmed':
          return c.json({ received: true, confirmed: false });
        case 'repeat':
          throw rateLimited(
            result.retryAfterMs,
            'The provider did not confirm this event a moment ago: deliver it again later.',
          );
        case 'duplicate':
          return c.json({ received: true, duplicate: true });
        default:
          if (result.outcome.kind === 'authorized' || result.outcome.kind === 'refund') s.jobs?.nudge();
          return c.json({ received: true });
      }
    },
  });
}
