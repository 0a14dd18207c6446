import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { parseActivitySearch } from '#domain/activitySearch';

/** A storefront's Activity tab (?kinds= narrows it), in place of its items. */
export const Route = createFileRoute('/s/$vanityUrl/activity')({
  validateSearch: parseActivitySearch,
  component: lazyRouteComponent(() => import('../views/activity/ActivityPages'), 'StorefrontActivity'),
});
