import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

export const Route = createFileRoute('/_authenticated/payouts')({
  loader: async ({ context }) => {
    const [machine, salesChart, storefront] = await Promise.all([
      context.app.flows.payout(),
      context.app.flows.salesChart(),
      context.app.catalog.myStorefront(),
    ]);
    return { machine, salesChart, storefront };
  },
  component: lazyRouteComponent(() => import('../../views/payouts/PayoutsPage'), 'PayoutsPage'),
});
