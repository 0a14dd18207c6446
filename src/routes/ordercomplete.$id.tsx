import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { parseOrderCompleteSearch } from '#domain/orderComplete';
import { privateHead } from '#domain/pageHead';
import { signedInUser } from './-guards';
import { fixedHead } from './-head';

/**
 * Where a purchase ends (/ordercomplete/{id}?e&t&serial&type): the page waits until the purchase
 * shows among the buyer's own. Open to visitors too: it shows what is known.
 */
export const Route = createFileRoute('/ordercomplete/$id')({
  head: fixedHead(privateHead('Your purchase')),
  validateSearch: parseOrderCompleteSearch,
  loader: async ({ context }) => {
    // The buyer's email and wallet: wait for the profile of a restored session (not for long).
    await signedInUser(context.app.session);
    return { machine: await context.app.flows.purchaseComplete() };
  },
  component: lazyRouteComponent(
    () => import('../views/purchase/PurchaseCompletePage'),
    'PurchaseCompletePage',
  ),
});
