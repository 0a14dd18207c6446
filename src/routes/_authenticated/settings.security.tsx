import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

export const Route = createFileRoute('/_authenticated/settings/security')({
  component: lazyRouteComponent(() => import('../../views/settings/SecuritySettings'), 'SecuritySettings'),
});
