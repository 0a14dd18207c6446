import type { Services } from '../../deps';
import type { Route } from '../../http';
import { rails } from '../rails';

/**
 * The payment providers' webhooks: each rail that hears from its provider declares its own route
 * (`webhook` of its PaymentRail, in its folder: signature or confirmation, each event applied once
 * with its effect); this mounts them all.
 */
export function webhookRoutes(s: Services): Route[] {
  return rails().flatMap((rail) => (rail.webhook ? [rail.webhook(s)] : []));
}
