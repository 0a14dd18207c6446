import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

export const Route = createFileRoute('/_authenticated/dashboard/help')({
  component: lazyRouteComponent(() => import('../../views/dashboard/HelpPanel'), 'HelpPanel'),
});
