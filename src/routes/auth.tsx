import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

/** The sign-in flow: its machine loads with the screen. */
export const Route = createFileRoute('/auth')({
  loader: async ({ context }) => ({
    machine: await context.app.flows.auth(),
    avatarUpload: await context.app.flows.avatarUpload(),
    walletAvailable: await context.app.walletAvailable(),
  }),
  component: lazyRouteComponent(() => import('../views/auth/AuthLayout'), 'AuthLayout'),
});
