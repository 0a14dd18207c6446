import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { optionalString } from './-guards';

/** The confirmation link sent to a new email address (token in t). */
export const Route = createFileRoute('/confirm-email')({
  validateSearch: optionalString('t'),
  loader: async ({ context }) => ({ machine: await context.app.flows.emailConfirmation() }),
  component: lazyRouteComponent(() => import('../views/account/LinkActionPage'), 'ConfirmEmailPage'),
});
