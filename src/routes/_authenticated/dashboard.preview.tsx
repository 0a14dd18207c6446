import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { PUBLIC_STATES } from '#domain/productsSearch';

/** The storefront as visitors see it: its public items (the first 100). */
export const Route = createFileRoute('/_authenticated/dashboard/preview')({
  loader: async ({ context }) => {
    const { storefront } = context;
    return {
      items: storefront
        ? await context.app.catalog.blueprints({
            storefrontId: storefront.id,
            states: PUBLIC_STATES,
            visible: true,
            to: 100,
          })
        : { results: [], total: 0 },
    };
  },
  component: lazyRouteComponent(() => import('../../views/dashboard/PreviewPanel'), 'PreviewPanel'),
});
