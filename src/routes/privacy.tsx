import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { staticHeads } from '#domain/pageHead';
import { fixedHead } from './-head';

export const Route = createFileRoute('/privacy')({
  head: fixedHead(staticHeads['/privacy']),
  component: lazyRouteComponent(() => import('../views/pages/PrivacyPage'), 'PrivacyPage'),
});
