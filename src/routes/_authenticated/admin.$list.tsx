import { createFileRoute, lazyRouteComponent, notFound } from '@tanstack/react-router';
import { adminListOrder } from '#domain/adminLists';
import type { AdminList } from '#domain/schemas/admin';

/** A list of the back office (an unknown one is Not Found); non-admins see that the area is restricted. */
export const Route = createFileRoute('/_authenticated/admin/$list')({
  params: {
    parse: ({ list }) => {
      if (!(adminListOrder as readonly string[]).includes(list)) throw notFound();
      return { list: list as AdminList };
    },
    stringify: ({ list }) => ({ list }),
  },
  loader: async ({ context, params }) => ({
    machine: await context.app.flows.adminList(),
    list: params.list,
    admin: context.app.session.getSnapshot().context.role === 'admin',
  }),
  component: lazyRouteComponent(() => import('../../views/admin/AdminPage'), 'AdminPage'),
});
