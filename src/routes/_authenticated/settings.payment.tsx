import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

export const Route = createFileRoute('/_authenticated/settings/payment')({
  loader: async ({ context }) => ({ machine: await context.app.flows.savedCards() }),
  component: lazyRouteComponent(() => import('../../views/settings/PaymentSettings'), 'PaymentSettings'),
});
