import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

export const Route = createFileRoute('/creators')({
  component: lazyRouteComponent(() => import('../views/pages/CreatorsPage'), 'CreatorsPage'),
});
