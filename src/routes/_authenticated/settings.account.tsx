import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

export const Route = createFileRoute('/_authenticated/settings/account')({
  component: lazyRouteComponent(() => import('../../views/settings/AccountSettings'), 'AccountSettings'),
});
