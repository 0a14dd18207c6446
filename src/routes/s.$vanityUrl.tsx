import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { marketFilter, parseMarketSearch } from '#domain/marketSearch';
import { storefrontHead } from '#domain/pageHead';
import { PUBLIC_STATES } from '#domain/productsSearch';
import { NotFoundPage } from '../views/pages/NotFoundPage';
import { orNotFound, orNull } from './-guards';
import { headTags } from './-head';

/**
 * A storefront by its vanity URL: its public items (the first 100, within min and max price) and its
 * sales figures.
 */
export const Route = createFileRoute('/s/$vanityUrl')({
  validateSearch: (raw: Record<string, unknown>) => {
    const { min, max } = parseMarketSearch(raw);
    return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) } as {
      min?: number;
      max?: number;
    };
  },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, params, deps }) => {
    const s = await context.app.catalog.storefront(params.vanityUrl).catch(orNotFound);
    const [items, share, stats] = await Promise.all([
      // What visitors see, for the owner too (drafts and hidden items stay in the dashboard).
      context.app.catalog.blueprints({
        ...marketFilter(deps),
        storefrontId: s.id,
        states: PUBLIC_STATES,
        visible: true,
        from: 1,
        to: 100,
      }),
      // None for a storefront visitors cannot see (its owner's, taken offline): nothing to share.
      context.app.catalog.share(s.id).catch(orNull),
      // Its sales figures; the page stands without them.
      context.app.catalog.stats(s.id).catch(orNull),
    ]);
    return { storefront: s, items, share, stats };
  },
  // Not found (no data), the shell's head stands.
  head: ({ match, loaderData }) =>
    !loaderData
      ? {}
      : headTags(
          match.context.origin,
          storefrontHead(loaderData.storefront, loaderData.items.total, match.context.origin),
        ),
  component: lazyRouteComponent(() => import('../views/catalog/StorefrontPage'), 'StorefrontPage'),
  notFoundComponent: NotFoundPage,
});
