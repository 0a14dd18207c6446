import { noContent } from '#domain/responses/common';
import { SaleNotices } from '#domain/responses/sales';
import type { Services } from '../deps';
import { defineRoute, type Route } from '../http';
import { listNotices, readNotices } from '../sales/notices';

/** The signed-in account's in-app notices (the dashboard's notifications). */
export function notificationRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/notifications',
      tag: 'users',
      auth: 'required',
      summary:
        'The caller’s newest 50 notices (kind sale: title, edition, amount and net in cents), with the unread count',
      response: SaleNotices,
      responses: {
        200: '{ results: [{ id, kind, title, serialNumber, amount, net, read, createdAt }], unread }',
        401: 'Not logged in',
      },
      async handler(c) {
        return c.json(await listNotices(s.db, c.get('user')!.id, 50));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/notifications/actions/read',
      tag: 'users',
      auth: 'required',
      summary: 'Marks every notice of the caller read',
      response: noContent,
      responses: { 204: 'Done', 401: 'Not logged in' },
      async handler(c) {
        await readNotices(s.db, c.get('user')!.id, s.clock());
        return c.body(null, 204);
      },
    }),
  ];
}
