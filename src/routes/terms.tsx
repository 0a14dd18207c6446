import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { staticHeads } from '#domain/pageHead';
import { fixedHead } from './-head';

export const Route = createFileRoute('/terms')({
  head: fixedHead(staticHeads['/terms']),
  component: lazyRouteComponent(() => import('../views/pages/TermsPage'), 'TermsPage'),
});
