import { createFileRoute, redirect } from '@tanstack/react-router';

/** The wizard starts at its first step. */
export const Route = createFileRoute('/create-storefront/')({
  beforeLoad: () => {
    throw redirect({ to: '/create-storefront/landing', replace: true });
  },
});
