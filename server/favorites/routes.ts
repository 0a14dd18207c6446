import { ErrorCode } from '#domain/errors';
import { noContent } from '#domain/responses/common';
import { FavoriteIds, FavoritePage } from '#domain/responses/favorites';
import { FAVORITES_MAX, FavoriteListQuery, FavoriteParams } from '#domain/schemas/favorites';
import { blueprintJson } from '../catalog/json';
import type { Services } from '../deps';
import { badRequest, defineRoute, notFound, type Route } from '../http';
import { addFavorite, countFavorites, favoriteIds, favoritesPage, removeFavorite, savable } from './queries';

/**
 * Favorites: the items a signed-in user saved to watch (the heart). Saving is idempotent (twice is
 * one row), removing an item not saved is fine; only items visitors may see can be saved, and an
 * account saves at most FAVORITES_MAX (500).
 */
export function favoriteRoutes(s: Services): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/users/me/favorites',
      tag: 'users',
      auth: 'required',
      summary:
        'The caller’s saved items, newest first, as item cards with favoritedAt; paged by from/to (at most 24)',
      query: FavoriteListQuery,
      response: FavoritePage,
      responses: {
        200: '{ results: [blueprint card + favoritedAt], total }',
        400: 'Invalid paging',
        401: 'Not signed in',
      },
      async handler(c, { query }) {
        const { rows, total } = await favoritesPage(
          s.db,
          c.get('user')!.id,
          query.from - 1,
          query.to - query.from + 1,
        );
        const results = rows.map((r) => ({
          ...blueprintJson(r.card, r.storefront, r.pack),
          favoritedAt: r.favoritedAt,
        }));
        return c.json({ results, total });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/users/me/favorites/ids',
      tag: 'users',
      auth: 'required',
      summary: 'The blueprint ids of every item the caller saved (at most 500), newest first',
      response: FavoriteIds,
      responses: { 200: '{ results: [blueprintId] }', 401: 'Not signed in' },
      async handler(c) {
        return c.json({ results: await favoriteIds(s.db, c.get('user')!.id) });
      },
    }),
    defineRoute({
      method: 'put',
      path: '/users/me/favorites/{blueprintId}',
      tag: 'users',
      auth: 'required',
      summary: 'Saves an item to the caller’s favorites; saving it again changes nothing',
      params: FavoriteParams,
      response: noContent,
      responses: {
        204: 'Saved (also when it was saved already)',
        400: 'FAVORITES_FULL: 500 items saved already',
        401: 'Not signed in',
        404: 'No such item, or one visitors may not see',
      },
      async handler(c, { params }) {
        const userId = c.get('user')!.id;
        if (!(await savable(s.db, params.blueprintId))) throw notFound();
        await s.db.transaction(async (tx) => {
          const added = await addFavorite(tx, userId, params.blueprintId, s.clock());
          if (added && (await countFavorites(tx, userId)) > FAVORITES_MAX)
            throw badRequest(ErrorCode.FAVORITES_FULL);
        });
        return c.body(null, 204);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/users/me/favorites/{blueprintId}',
      tag: 'users',
      auth: 'required',
      summary: 'Removes an item from the caller’s favorites; removing one not saved changes nothing',
      params: FavoriteParams,
      response: noContent,
      responses: { 204: 'Removed (also when it was not saved)', 401: 'Not signed in' },
      async handler(c, { params }) {
        await removeFavorite(s.db, c.get('user')!.id, params.blueprintId);
        return c.body(null, 204);
      },
    }),
  ];
}
