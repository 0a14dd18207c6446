import { createFileRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { privateHead } from '#domain/pageHead';
import { isLoggedIn } from '../../machines/session';
import { fixedHead } from './-head';

/**
 * Create-storefront entry: a visitor who is not logged in goes Home; a user who already has a
 * storefront goes to the dashboard; anyone else starts the wizard at its first step.
 */
export const Route = createFileRoute('/create-storefront')({
  head: fixedHead(privateHead('Create your storefront')),
  beforeLoad: async ({ context }) => {
    if (!isLoggedIn(context.app.session.getSnapshot())) throw redirect({ to: '/', replace: true });
    if (await context.app.catalog.myStorefront()) throw redirect({ to: '/dashboard', replace: true });
  },
  loader: async ({ context }) => ({ machine: await context.app.flows.storefrontWizard() }),
  component: lazyRouteComponent(
    () => import('../views/storefront/CreateStorefrontPage'),
    'CreateStorefrontPage',
  ),
});
