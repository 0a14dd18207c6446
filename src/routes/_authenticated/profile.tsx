import { createFileRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { isLoggedIn } from '../../../machines/session';
import { nftMachines, signedInUser } from '../-guards';

/** The signed-in user's profile: their collectibles, those for sale, and the NFT action flows. */
export const Route = createFileRoute('/_authenticated/profile')({
  loader: async ({ context }) => {
    // The profile arrives shortly after login; its collectibles are looked up by user id. Without
    // it (the fetch failed, or it did not come in time) the page offers to load again.
    const user = await signedInUser(context.app.session);
    if (!user) {
      if (!isLoggedIn(context.app.session.getSnapshot())) throw redirect({ to: '/auth/connect' });
      throw new Error('The profile could not be loaded');
    }
    const [owned, machines, avatarUpload, storefront] = await Promise.all([
      context.app.nfts.ownedBy(user.id),
      nftMachines(context.app),
      context.app.flows.avatarUpload(),
      context.app.catalog.myStorefront(),
    ]);
    return { owned, machines, avatarUpload, storefront };
  },
  component: lazyRouteComponent(() => import('../../views/profile/ProfilePage'), 'ProfilePage'),
});
