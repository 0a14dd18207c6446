import { getRouteApi } from '@tanstack/react-router';
import { ItemPage } from '../catalog/ItemPage';
import { NftPage } from './NftPage';

const route = getRouteApi('/nft/$id');

/** /nft/{id}: one NFT (a chain token id), or the item detail of a blueprint or pack. */
export function NftRoute() {
  const data = route.useLoaderData();
  if (data.kind === 'nft') return <NftPage nft={data.nft} history={data.history} machines={data.machines} />;
  return <ItemPage item={data.item} history={data.history} listings={data.listings} claim={data.claim} />;
}
