import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { FAVORITES_PAGE_MAX } from '#domain/schemas/favorites';
import { ItemGrid } from '../catalog/ItemCard';
import { Pager } from '../components';

const favoritesRoute = getRouteApi('/_authenticated/profile/favorites');

/** The profile's Favorites tab: the saved items as cards (each with its heart), newest first, paged. */
export function FavoritesTab() {
  const { results, total } = favoritesRoute.useLoaderData();
  const page = favoritesRoute.useSearch({ select: (s) => s.page ?? 1 });
  const navigate = useNavigate();
  const pages = Math.max(1, Math.ceil(total / FAVORITES_PAGE_MAX));
  const go = (to: number) => void navigate({ to: '/profile/favorites', search: to > 1 ? { page: to } : {} });
  if (total === 0)
    return (
      <div className="vt-empty">
        <h2>No favorites yet</h2>
        <p className="vt-muted">Press the heart on any item to save it here and hear when its price drops.</p>
      </div>
    );
  return (
    <>
      <ItemGrid items={results} label="Favorites" />
      {pages > 1 && (
        <Pager
          page={page}
          pages={pages}
          canPrevious={page > 1}
          canNext={page < pages}
          onPrevious={() => go(page - 1)}
          onNext={() => go(page + 1)}
        />
      )}
    </>
  );
}
