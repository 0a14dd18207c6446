import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';

/** The profile's Favorites tab: the items the user saved, newest first, a page at a time (?page=n). */
export const Route = createFileRoute('/_authenticated/profile/favorites')({
  validateSearch: (search: Record<string, unknown>): { page?: number } => {
    const page = Number(search.page);
    return Number.isInteger(page) && page > 1 ? { page } : {};
  },
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context, deps }) => context.app.flows.favoritesPage(deps.page),
  component: lazyRouteComponent(() => import('../../views/profile/FavoritesTab'), 'FavoritesTab'),
});
