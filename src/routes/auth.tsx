import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { privateHead } from '#domain/pageHead';
import { fixedHead } from './-head';

/** The sign-in flow: its machine loads with the screen. */
export const Route = createFileRoute('/auth')({
  head: fixedHead(privateHead('Sign in')),
  loader: async ({ context }) => ({
    machine: await context.app.flows.auth(),
    avatarUpload: await context.app.flows.avatarUpload(),
    walletAvailable: await context.app.walletAvailable(),
  }),
  component: lazyRouteComponent(() => import('../views/auth/AuthLayout'), 'AuthLayout'),
});
