import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { parseActivitySearch } from '#domain/activitySearch';

/** The marketplace's Activity tab: every sale, listing, mint… newest first (?kinds=, ?userId= narrow it). */
export const Route = createFileRoute('/marketplace_/activity')({
  validateSearch: parseActivitySearch,
  component: lazyRouteComponent(() => import('../views/activity/ActivityPages'), 'MarketplaceActivity'),
});
