import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { optionalString } from './-guards';

/** The link in every sale email that turns sale emails off (signed token in t; no sign-in). */
export const Route = createFileRoute('/unsubscribe')({
  validateSearch: optionalString('t'),
  loader: async ({ context }) => ({ machine: await context.app.flows.saleEmailsOff() }),
  component: lazyRouteComponent(() => import('../views/account/LinkActionPage'), 'UnsubscribePage'),
});
