import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

/**
 * Where a crypto payment the buyer canceled on the provider's page ends (/coinbasecanceled/{chargeId}).
 * Charges are their buyer's.
 */
export const Route = createFileRoute('/_authenticated/coinbasecanceled/$id')({
  loader: async ({ context }) => ({ machine: await context.app.flows.cryptoCanceled() }),
  component: lazyRouteComponent(
    () => import('../../views/purchase/CryptoCanceledPage'),
    'CryptoCanceledPage',
  ),
});
