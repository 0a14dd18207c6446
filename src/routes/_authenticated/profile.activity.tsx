import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { parseActivitySearch } from '#domain/activitySearch';

/** The profile's Activity tab: what the user sold, bought, listed, minted… (?kinds= narrows it). */
export const Route = createFileRoute('/_authenticated/profile/activity')({
  validateSearch: parseActivitySearch,
  component: lazyRouteComponent(() => import('../../views/activity/ActivityPages'), 'ProfileActivity'),
});
