import { createFileRoute, redirect } from '@tanstack/react-router';

/** /profile opens the collection tab. */
export const Route = createFileRoute('/_authenticated/profile/')({
  beforeLoad: () => {
    throw redirect({ to: '/profile/collection', replace: true });
  },
});
