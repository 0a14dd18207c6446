import { createFileRoute, redirect } from '@tanstack/react-router';
import { adminListOrder } from '#domain/adminLists';

/** The back office: /admin opens its first list. */
export const Route = createFileRoute('/admin')({
  beforeLoad: () => {
    throw redirect({ to: '/admin/$list', params: { list: adminListOrder[0]! } });
  },
});
