import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

/**
 * The creator dashboard: the caller's storefront (or null), fetched once per navigation before the
 * panels load and shared with them through the route context (the layout shows it too).
 */
export const Route = createFileRoute('/_authenticated/dashboard')({
  beforeLoad: async ({ context }) => ({ storefront: await context.app.catalog.myStorefront() }),
  loader: ({ context }) => ({ storefront: context.storefront }),
  component: lazyRouteComponent(() => import('../../views/dashboard/DashboardLayout'), 'DashboardLayout'),
});
