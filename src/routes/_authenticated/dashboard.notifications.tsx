import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

export const Route = createFileRoute('/_authenticated/dashboard/notifications')({
  loader: async ({ context }) => ({ machine: await context.app.flows.saleNotices() }),
  component: lazyRouteComponent(
    () => import('../../views/dashboard/NotificationsPanel'),
    'NotificationsPanel',
  ),
});
