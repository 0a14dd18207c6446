import * as v from 'valibot';
import { BlueprintJson } from './catalog';
import { DateTime, pageOf, resultsOf } from './common';

/** A saved item: its card (as the catalog answers it) and when it was saved. */
export const FavoriteJson = v.object({ ...BlueprintJson.entries, favoritedAt: DateTime });
export type FavoriteJson = v.InferOutput<typeof FavoriteJson>;

/** GET users/me/favorites: newest first. */
export const FavoritePage = pageOf(FavoriteJson);
export type FavoritePage = v.InferOutput<typeof FavoritePage>;

/** GET users/me/favorites/ids: the blueprint ids of every saved item. */
export const FavoriteIds = resultsOf(v.string());
export type FavoriteIds = v.InferOutput<typeof FavoriteIds>;
