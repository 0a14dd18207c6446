import { ACTIVITY_KINDS, type ActivityKind } from './activityKinds';

/**
 * An Activity tab's URL search: the kinds shown (`?kinds=sale,listing`; none: every kind) and, on
 * the marketplace's tab, the user whose activity it shows (`?userId=`). Anything else is dropped.
 */
export interface ActivitySearch {
  kinds?: string;
  userId?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isKind = (k: string): k is ActivityKind => (ACTIVITY_KINDS as readonly string[]).includes(k);

/**
 * Plain code rather than valibot: every route's search parser loads with every page (the route
 * tree), and valibot would add 2.5 kB to each page's first load.
 */
export function parseActivitySearch(raw: Record<string, unknown>): ActivitySearch {
  const kinds = typeof raw.kinds === 'string' ? [...new Set(raw.kinds.split(',').filter(isKind))] : [];
  const userId = typeof raw.userId === 'string' && UUID.test(raw.userId) ? raw.userId : undefined;
  return {
    ...(kinds.length ? { kinds: ACTIVITY_KINDS.filter((k) => kinds.includes(k)).join(',') } : {}),
    ...(userId ? { userId } : {}),
  };
}
