import { createFileRoute, redirect } from '@tanstack/react-router';

/** /dashboard opens the preview panel. */
export const Route = createFileRoute('/_authenticated/dashboard/')({
  beforeLoad: () => {
    throw redirect({ to: '/dashboard/preview', replace: true });
  },
});
