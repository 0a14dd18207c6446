import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { parseActivitySearch } from '#domain/activitySearch';

/** An item's or an NFT's Activity tab (?kinds= narrows it), in the item page's tab panel. */
export const Route = createFileRoute('/nft/$id/activity')({
  validateSearch: parseActivitySearch,
  component: lazyRouteComponent(() => import('../views/activity/ActivityPages'), 'ItemActivity'),
});
