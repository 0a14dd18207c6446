import * as v from 'valibot';
import { ACTIVITY_KINDS } from '../activityKinds';
import { queryInteger, queryList } from '../validation';
import { NftIdParams } from './nfts';

export { ACTIVITY_KINDS, type ActivityKind } from '../activityKinds';

/** A page of activity holds at most this many entries (default the whole page). */
export const ACTIVITY_PAGE_MAX = 50;

const uuid = (field: string) => v.pipe(v.string(`INVALID_VALUE.${field}`), v.uuid(`INVALID_VALUE.${field}`));

/**
 * GET activity: paging from/to (1-based, inclusive; default 1..50, at most 50 per page) and filters,
 * each optional: kinds (a comma list of ACTIVITY_KINDS), storefrontId, blueprintId, nftId, userId
 * (the user on either side of an entry).
 */
export const ActivityQuery = v.pipe(
  v.object({
    from: v.optional(queryInteger('from', 1), '1'),
    to: v.optional(queryInteger('to', 1)),
    kinds: v.optional(queryList('kinds', { values: ACTIVITY_KINDS })),
    storefrontId: v.optional(uuid('storefrontId')),
    blueprintId: v.optional(uuid('blueprintId')),
    nftId: v.optional(v.pipe(NftIdParams.entries.id, v.string('INVALID_VALUE.nftId'))),
    userId: v.optional(uuid('userId')),
  }),
  v.transform((q) => ({ ...q, to: q.to ?? q.from + ACTIVITY_PAGE_MAX - 1 })),
  v.check((q) => q.to >= q.from && q.to - q.from < ACTIVITY_PAGE_MAX, 'INVALID_VALUE.to'),
);
export type ActivityQuery = v.InferOutput<typeof ActivityQuery>;
export type ActivityFilters = Omit<ActivityQuery, 'from' | 'to'>;
