import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

export const Route = createFileRoute('/terms')({
  component: lazyRouteComponent(() => import('../views/pages/TermsPage'), 'TermsPage'),
});
