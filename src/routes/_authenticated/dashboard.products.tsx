import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { parseProductsSearch, productFilter } from '#domain/productsSearch';
import { orNull } from '../-guards';

/** The storefront's products, searched and filtered by state; `edit` opens one (or a new one). */
export const Route = createFileRoute('/_authenticated/dashboard/products')({
  validateSearch: parseProductsSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const { app, storefront } = context;
    const [page, editing, blueprintForm, publish, productActions] = await Promise.all([
      storefront
        ? app.catalog.blueprints(productFilter(storefront.id, deps.q, deps.status ?? 'all', deps.page))
        : { results: [], total: 0 },
      deps.edit && deps.edit !== 'new' ? app.catalog.blueprint(deps.edit).catch(orNull) : null,
      app.flows.blueprintForm(),
      app.flows.publish(),
      app.flows.productActions(),
    ]);
    return { page, editing, machines: { blueprintForm, publish, productActions } };
  },
  component: lazyRouteComponent(() => import('../../views/dashboard/ProductsPanel'), 'ProductsPanel'),
});
