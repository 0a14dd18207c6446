import { ActivityPage } from '#domain/responses/activity';
import { ActivityQuery } from '#domain/schemas/activity';
import type { Services } from '../deps';
import { defineRoute, type Route } from '../http';
import { activityPage } from './queries';

/**
 * The activity feed: sales, listings, delistings, mints, transfers and offers as the chain and the
 * order records show them, each fact once, newest first.
 */
export function activityRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/activity',
      tag: 'nfts',
      summary:
        'Activity, newest first: filters kinds (comma list), storefrontId, blueprintId, nftId, userId (either side); paged by from/to (at most 50)',
      query: ActivityQuery,
      response: ActivityPage,
      responses: {
        200: '{ results: [{ id, kind, item, price, from, to, at, transactionId }], hasMore }',
        400: 'INVALID_VALUE with the field: paging, an unknown kind, a malformed id',
      },
      async handler(c, { query }) {
        return c.json(await activityPage(s.db, query));
      },
    }),
  ];
}
