import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { marketFilter, parseMarketSearch } from '#domain/marketSearch';
import { staticHeads } from '#domain/pageHead';
import { fixedHead } from './-head';

/** Every item on sale, filtered and sorted by the query; the count of editions still available. */
export const Route = createFileRoute('/marketplace')({
  head: fixedHead(staticHeads['/marketplace']),
  validateSearch: parseMarketSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => ({
    page: await context.app.catalog.blueprints({ ...marketFilter(deps), countAvailable: true }),
  }),
  component: lazyRouteComponent(() => import('../views/catalog/MarketplacePage'), 'MarketplacePage'),
});
