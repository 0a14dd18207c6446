import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { staticHeads } from '#domain/pageHead';
import { fixedHead } from './-head';

export const Route = createFileRoute('/creators')({
  head: fixedHead(staticHeads['/creators']),
  component: lazyRouteComponent(() => import('../views/pages/CreatorsPage'), 'CreatorsPage'),
});
