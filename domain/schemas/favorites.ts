import * as v from 'valibot';
import { queryInteger } from '../validation';

/** How many items an account may save; the browser reads all their ids at once. */
export const FAVORITES_MAX = 500;
/** A page of favorites holds at most this many (default the whole page). */
export const FAVORITES_PAGE_MAX = 24;

/** PUT / DELETE users/me/favorites/{blueprintId}. */
export const FavoriteParams = v.object({
  blueprintId: v.pipe(v.string('INVALID_VALUE.blueprintId'), v.uuid('INVALID_VALUE.blueprintId')),
});

/** GET users/me/favorites: paging from/to (1-based, inclusive; default 1..24, at most 24 per page). */
export const FavoriteListQuery = v.pipe(
  v.object({
    from: v.optional(queryInteger('from', 1), '1'),
    to: v.optional(queryInteger('to', 1)),
  }),
  v.transform((q) => ({ ...q, to: q.to ?? q.from + FAVORITES_PAGE_MAX - 1 })),
  v.check((q) => q.to >= q.from && q.to - q.from < FAVORITES_PAGE_MAX, 'INVALID_VALUE.to'),
);
export type FavoriteListQuery = v.InferOutput<typeof FavoriteListQuery>;
