import { createFileRoute, redirect } from '@tanstack/react-router';

/** /nft/{id} opens its details tab; the query goes along (a purchase dialog to open again, useReturnedPurchase). */
export const Route = createFileRoute('/nft/$id/')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/nft/$id/details', params, search: true, replace: true });
  },
});
