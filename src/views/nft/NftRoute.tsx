import { getRouteApi } from '@tanstack/react-router';
import { preloadable } from '../../lazy';

/**
 * Each kind of page at /nft/{id} loads its own code, which the route's loader fetches beside the
 * page's data: an item's page carries none of an owner's actions, an NFT's none of the checkout's
 * buttons. Both render at once when mounted, their code being there (see preloadable).
 */
export const ItemPageView = preloadable(async () => (await import('../catalog/ItemPage')).ItemPage);
export const NftPageView = preloadable(async () => (await import('./NftPage')).NftPage);

const route = getRouteApi('/nft/$id');

/** /nft/{id}: one NFT (a chain token id), or the item detail of a blueprint or pack. */
export function NftRoute() {
  const data = route.useLoaderData();
  if (data.kind === 'nft')
    return <NftPageView nft={data.nft} history={data.history} machines={data.machines} />;
  return <ItemPageView item={data.item} history={data.history} listings={data.listings} claim={data.claim} />;
}
