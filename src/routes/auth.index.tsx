import { createFileRoute, redirect } from '@tanstack/react-router';

/** /auth starts the sign-in flow at its first step. */
export const Route = createFileRoute('/auth/')({
  beforeLoad: () => {
    throw redirect({ to: '/auth/connect', replace: true });
  },
});
