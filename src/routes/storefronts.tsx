import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { parseCategories } from '#domain/marketSearch';
import { staticHeads } from '#domain/pageHead';
import { parseStorefrontsSearch } from '#domain/storefrontsSearch';
import { fixedHead } from './-head';

/** The storefronts, searched by name and category, newest (or oldest, or most volume) first: the first 60. */
export const Route = createFileRoute('/storefronts')({
  head: fixedHead(staticHeads['/storefronts']),
  validateSearch: parseStorefrontsSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => ({
    page: await context.app.catalog.storefronts({
      search: deps.q,
      categories: parseCategories(deps.categories),
      sort: deps.sort === 'volume' ? 'volume' : 'createdAt',
      direction: deps.sort === 'oldest' ? 'asc' : 'desc',
      to: 60,
    }),
  }),
  component: lazyRouteComponent(
    () => import('../views/catalog/BrowseStorefrontsPage'),
    'BrowseStorefrontsPage',
  ),
});
