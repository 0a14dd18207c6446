import * as v from 'valibot';
import { ACTIVITY_KINDS, type ActivityKind } from './schemas/activity';

/**
 * An Activity tab's URL search: the kinds shown (`?kinds=sale,listing`; none: every kind) and, on
 * the marketplace's tab, the user whose activity it shows (`?userId=`). Anything else is dropped.
 */
export interface ActivitySearch {
  kinds?: string;
  userId?: string;
}

const Kinds = v.pipe(
  v.string(),
  v.transform((s) =>
    s.split(',').filter((k): k is ActivityKind => (ACTIVITY_KINDS as readonly string[]).includes(k)),
  ),
);
const UserId = v.pipe(v.string(), v.uuid());

export function parseActivitySearch(raw: Record<string, unknown>): ActivitySearch {
  const kinds = v.safeParse(Kinds, raw.kinds);
  const userId = v.safeParse(UserId, raw.userId);
  const list = kinds.success ? [...new Set(kinds.output)] : [];
  return {
    ...(list.length ? { kinds: list.join(',') } : {}),
    ...(userId.success ? { userId: userId.output } : {}),
  };
}

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
