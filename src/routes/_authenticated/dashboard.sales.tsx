import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { parseSalesSearch } from '#domain/salesSearch';

/** The storefront's sales, by the query's page and period; the ledger export and the chart. */
export const Route = createFileRoute('/_authenticated/dashboard/sales')({
  validateSearch: parseSalesSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const { storefront } = context;
    const [sales, ledgerExport, salesChart] = await Promise.all([
      storefront ? context.app.sales.list({ storefrontId: storefront.id, ...deps }) : null,
      context.app.flows.ledgerExport(),
      context.app.flows.salesChart(),
    ]);
    return { sales, ledgerExport, salesChart };
  },
  component: lazyRouteComponent(() => import('../../views/dashboard/SalesPanel'), 'SalesPanel'),
});
