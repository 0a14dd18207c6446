import { lazy, Suspense } from 'react';
import type { ActivityFilters } from '#domain/schemas/activity';

/** The Activity tab's code loads when the tab is opened, not with the page. */
const Tab = lazy(() => import('./RouteActivityTab').then((m) => ({ default: m.RouteActivityTab })));

export function LazyActivityTab({ filters }: { filters: Omit<ActivityFilters, 'kinds'> }) {
  return (
    <Suspense fallback={null}>
      <Tab filters={filters} />
    </Suspense>
  );
}
