import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { privateHead } from '#domain/pageHead';
import { optionalString } from './-guards';
import { fixedHead } from './-head';

/** The link in every sale email that turns sale emails off (signed token in t; no sign-in). */
export const Route = createFileRoute('/unsubscribe')({
  head: fixedHead(privateHead('Sale emails')),
  validateSearch: optionalString('t'),
  loader: async ({ context }) => ({ machine: await context.app.flows.saleEmailsOff() }),
  component: lazyRouteComponent(() => import('../views/account/LinkActionPage'), 'UnsubscribePage'),
});
