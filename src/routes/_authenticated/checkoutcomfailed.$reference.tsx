import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { optionalString } from '../-guards';

/**
 * Where a card payment that failed ends (/checkoutcomfailed/{orderId}); from 3-D Secure the provider
 * adds `cko-session-id`. Orders are their buyer's.
 */
export const Route = createFileRoute('/_authenticated/checkoutcomfailed/$reference')({
  validateSearch: optionalString('cko-session-id'),
  loader: async ({ context }) => ({ machine: await context.app.flows.checkoutFailed() }),
  component: lazyRouteComponent(
    () => import('../../views/purchase/CheckoutFailedPage'),
    'CheckoutFailedPage',
  ),
});
