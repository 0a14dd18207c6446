import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

/**
 * The profile's Offers tab: the offers made on the user's NFTs (received) and those the user made,
 * newest first, at most 50 of each (read by the flows, which load with the tab).
 */
export const Route = createFileRoute('/_authenticated/profile/offers')({
  loader: ({ context }) => context.app.flows.myOffers(),
  component: lazyRouteComponent(() => import('../../views/profile/OffersTab'), 'OffersTab'),
});
