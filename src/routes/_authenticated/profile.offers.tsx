import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { signedInUser } from '../-guards';

/**
 * The profile's Offers tab: the offers made on the user's NFTs (received) and those the user made,
 * newest first, at most 50 of each.
 */
export const Route = createFileRoute('/_authenticated/profile/offers')({
  loader: async ({ context }) => {
    const user = await signedInUser(context.app.session);
    if (!user) return { received: [], made: [] };
    const [received, made] = await Promise.all([
      context.app.flows.offers({ ownerId: user.id }),
      context.app.flows.offers({ buyerId: user.id }),
    ]);
    return { received: received.results, made: made.results };
  },
  component: lazyRouteComponent(() => import('../../views/profile/OffersTab'), 'OffersTab'),
});
