import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { MarketplaceTabs } from '../catalog/MarketplaceTabs';
import { ActivityTab } from './ActivityTab';

const route = getRouteApi('/marketplace_/activity');

/** The marketplace's Activity tab (a user's activity with ?userId=). */
export function MarketplaceActivity() {
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/marketplace/activity' });
  return (
    <section className="vt-page">
      <h1 className="vt-page__title">Marketplace</h1>
      <MarketplaceTabs active="activity" />
      <ActivityTab
        filters={search.userId ? { userId: search.userId } : {}}
        search={search}
        onSearch={(next) => navigate({ search: next })}
      />
    </section>
  );
}
