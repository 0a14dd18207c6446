import { ACTIVITY_KINDS, type ActivityKind } from './activityKinds';
import type { ActivitySearch } from './activitySearch';

/** The Activity tab's kind filter over its URL search (loaded with the tab, not with the page). */

/** The kinds a search shows (every kind when it names none). */
export const kindsOf = (search: ActivitySearch): ActivityKind[] =>
  (search.kinds?.split(',') as ActivityKind[] | undefined) ?? [];

/** The search after turning one kind on or off. */
export function toggleKind(search: ActivitySearch, kind: ActivityKind): ActivitySearch {
  const kinds = kindsOf(search);
  const next = kinds.includes(kind) ? kinds.filter((k) => k !== kind) : [...kinds, kind];
  const { kinds: _, ...rest } = search;
  return next.length ? { ...rest, kinds: ACTIVITY_KINDS.filter((k) => next.includes(k)).join(',') } : rest;
}

const filterLabels: Record<ActivityKind, string> = {
  sale: 'Sales',
  listing: 'Listings',
  delisting: 'Delistings',
  mint: 'Mints',
  transfer: 'Transfers',
  offer: 'Offers',
  offerAccepted: 'Accepted offers',
};

/** The kind filter's buttons: each kind's label and whether it is on ("All" is on when none is). */
export function kindFilters(search: ActivitySearch) {
  const kinds = kindsOf(search);
  return {
    all: { label: 'All', pressed: kinds.length === 0 },
    kinds: ACTIVITY_KINDS.map((kind) => ({ kind, label: filterLabels[kind], pressed: kinds.includes(kind) })),
  };
}
