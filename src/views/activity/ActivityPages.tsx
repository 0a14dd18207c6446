import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useApp } from '../AppContext';
import { ActivityTab } from './ActivityTab';
import { RouteActivityTab } from './RouteActivityTab';

/** The Activity tabs of the marketplace, an item or NFT, a storefront and the profile: one chunk for all. */

const marketplaceRoute = getRouteApi('/marketplace_/activity');

/** The marketplace's Activity tab (a user's activity with ?userId=). */
export function MarketplaceActivity() {
  const search = marketplaceRoute.useSearch();
  const navigate = useNavigate({ from: '/marketplace/activity' });
  return (
    <section className="vt-page">
      <h1 className="vt-page__title">Marketplace</h1>
      <nav className="vt-tabs-nav" aria-label="Marketplace">
        <Link to="/marketplace">Items</Link>
        <Link to="/marketplace/activity" className="is-active">
          Activity
        </Link>
      </nav>
      <ActivityTab
        filters={search.userId ? { userId: search.userId } : {}}
        search={search}
        onSearch={(next) => navigate({ search: next })}
      />
    </section>
  );
}

const itemRoute = getRouteApi('/nft/$id');

/** The activity of one NFT, or of every edition of an item (a pack has none of its own). */
export function ItemActivity() {
  const data = itemRoute.useLoaderData();
  if (data.kind === 'nft') return <RouteActivityTab filters={{ nftId: data.nft.id }} />;
  return data.item.isPack ? null : <RouteActivityTab filters={{ blueprintId: data.item.id }} />;
}

const storefrontRoute = getRouteApi('/s/$vanityUrl');

/** The activity of every item of one storefront. */
export function StorefrontActivity() {
  const { storefront } = storefrontRoute.useLoaderData();
  return <RouteActivityTab filters={{ storefrontId: storefront.id }} />;
}

/** The signed-in user's activity, on either side of each entry. */
export function ProfileActivity() {
  const { session } = useApp();
  const userId = useSelector(session, (s) => s.context.user?.id ?? null);
  return userId ? <RouteActivityTab filters={{ userId }} /> : null;
}
