import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { privateHead } from '#domain/pageHead';
import { optionalString } from './-guards';
import { fixedHead } from './-head';

/** The confirmation link sent to a new email address (token in t). */
export const Route = createFileRoute('/confirm-email')({
  head: fixedHead(privateHead('Confirm your email')),
  validateSearch: optionalString('t'),
  loader: async ({ context }) => ({ machine: await context.app.flows.emailConfirmation() }),
  component: lazyRouteComponent(() => import('../views/account/LinkActionPage'), 'ConfirmEmailPage'),
});
