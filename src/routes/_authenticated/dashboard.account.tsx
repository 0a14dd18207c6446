import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

export const Route = createFileRoute('/_authenticated/dashboard/account')({
  loader: async ({ context }) => ({ machine: await context.app.flows.dashboardAccount() }),
  component: lazyRouteComponent(() => import('../../views/dashboard/AccountPanel'), 'AccountPanel'),
});
