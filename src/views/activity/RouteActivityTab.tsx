import { useNavigate, useSearch } from '@tanstack/react-router';
import { type ActivitySearch, parseActivitySearch } from '#domain/activitySearch';
import type { ActivityFilters } from '#domain/schemas/activity';
import { ActivityTab } from './ActivityTab';

/** A page's Activity tab whose kind filter lives in the current route's URL search. */
export function RouteActivityTab({ filters }: { filters: Omit<ActivityFilters, 'kinds'> }) {
  const search = parseActivitySearch(useSearch({ strict: false }) as Record<string, unknown>);
  const navigate = useNavigate();
  return (
    <ActivityTab
      filters={filters}
      search={search}
      onSearch={(next: ActivitySearch) => navigate({ to: '.', search: next as never })}
    />
  );
}
