import * as v from 'valibot';
import { Email } from '../../src/domain/schemas/accounts';
import type { Services } from '../deps';
import { defineRoute, type Route } from '../http';

/** Development helpers; not mounted in production. */
export function devRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/dev/outbox',
      tag: 'dev',
      summary: 'The newest 50 emails of the outbox, optionally for one recipient (not in production)',
      query: v.object({ to: v.optional(Email) }),
      responses: { 200: '{ results: [{ id, to, subject, text, link, createdAt }] }' },
      async handler(c, { query }) {
        const messages = await s.outbox.list({ to: query.to, limit: 50 });
        return c.json({ results: messages });
      },
    }),
  ];
}
