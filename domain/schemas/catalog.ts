import * as v from 'valibot';
import { blueprintStates, packStates, packTypes, reportReasons, storefrontCategories } from '../enums';
import { fieldObject, lengthKey, queryInteger, queryList } from '../validation';

/**
 * Query strings of the catalog lists (storefronts, blueprints, packs): lists page with from/to
 * (1-based, inclusive, at most 100 per page), lists of values are comma separated, sorts are
 * `sort[column]` and `sort[direction]`, money is integer cents.
 */
const queryBool = (field: string) =>
  v.pipe(
    v.picklist(['true', 'false'], `INVALID_VALUE.${field}`),
    v.transform((s) => s === 'true'),
  );
const commaList = <T extends string>(field: string, values: readonly T[]) =>
  queryList(field, { values }, { trim: true });
const search = v.pipe(
  v.string('INVALID_VALUE.search'),
  v.transform((s) => s.trim()),
  v.maxLength(100, lengthKey('search', { max: 100 })),
);
const direction = v.picklist(['asc', 'desc'], 'INVALID_VALUE.sort');
const uuid = (field: string) => v.pipe(v.string(`INVALID_VALUE.${field}`), v.uuid(`INVALID_VALUE.${field}`));

const paging = {
  from: v.optional(queryInteger('from', 1), '1'),
  to: v.optional(queryInteger('to', 1)),
};
/** `to` defaults to a page of 50, and a page holds at most 100. */
const pageOk = (q: { from: number; to: number }) => q.to >= q.from && q.to - q.from < 100;
const priceRangeOk = (q: { min?: number; max?: number }) =>
  q.min === undefined || q.max === undefined || q.min <= q.max;

export const IdParams = v.object({ id: uuid('id') });

/**
 * GET storefronts: search by name, only those with blueprints, categories, sort by created date or
 * by volume (all-time sales in cents, as of the stats refresh).
 */
export const StorefrontListQuery = v.pipe(
  v.object({
    ...paging,
    search: v.optional(search),
    hasBlueprints: v.optional(queryBool('hasBlueprints')),
    categories: v.optional(commaList('categories', storefrontCategories)),
    'sort[column]': v.optional(v.picklist(['createdAt', 'volume'], 'INVALID_VALUE.sort'), 'createdAt'),
    'sort[direction]': v.optional(direction, 'desc'),
  }),
  v.transform((q) => ({ ...q, to: q.to ?? q.from + 49 })),
  v.check((q) => pageOk(q), 'INVALID_VALUE.to'),
);
export type StorefrontListQuery = v.InferOutput<typeof StorefrontListQuery>;

/** A storefront by id or by vanity URL (the public page /s/{vanityUrl}). */
export const StorefrontKeyParams = v.object({
  id: v.pipe(
    v.string('INVALID_VALUE.id'),
    v.regex(/^[A-Za-z0-9_-]{2,50}$|^[0-9a-f-]{36}$/, 'INVALID_VALUE.id'),
  ),
});

/**
 * Sort columns of GET blueprints; `trending`: sales in the last 24 h, ties by their volume (as of the
 * stats refresh, every minute), best first with direction desc.
 */
export const blueprintSortColumns = ['price', 'quantity', 'createdAt', 'trending'] as const;

/** GET blueprints (the marketplace, storefront grids). */
export const BlueprintListQuery = v.pipe(
  v.object({
    ...paging,
    storefrontId: v.optional(uuid('storefrontId')),
    states: v.optional(commaList('states', blueprintStates)),
    visible: v.optional(queryBool('visible')),
    withStorefront: v.optional(queryBool('withStorefront')),
    /** Also count the matches that can be bought or claimed now (`available`). */
    countAvailable: v.optional(queryBool('countAvailable')),
    search: v.optional(search),
    min: v.optional(queryInteger('min', 0)),
    max: v.optional(queryInteger('max', 0)),
    storefrontCategories: v.optional(commaList('storefrontCategories', storefrontCategories)),
    'sort[column]': v.optional(v.picklist(blueprintSortColumns, 'INVALID_VALUE.sort'), 'price'),
    'sort[direction]': v.optional(direction, 'asc'),
  }),
  v.transform((q) => ({ ...q, to: q.to ?? q.from + 49 })),
  v.check((q) => pageOk(q), 'INVALID_VALUE.to'),
  v.check((q) => priceRangeOk(q), 'INVALID_VALUE.max'),
);
export type BlueprintListQuery = v.InferOutput<typeof BlueprintListQuery>;

/** GET blueprint-packs. */
export const PackListQuery = v.pipe(
  v.object({
    ...paging,
    storefrontId: v.optional(uuid('storefrontId')),
    type: v.optional(v.picklist(packTypes, 'INVALID_VALUE.type')),
    states: v.optional(commaList('states', packStates)),
  }),
  v.transform((q) => ({ ...q, to: q.to ?? q.from + 49 })),
  v.check((q) => pageOk(q), 'INVALID_VALUE.to'),
);
export type PackListQuery = v.InferOutput<typeof PackListQuery>;

export const REPORT_DESCRIPTION_MAX = 200;

/** POST storefront-reports: a reason is required ("missing"), the description at most 200 characters. */
export const StorefrontReportInput = fieldObject({
  storefrontId: uuid('storefrontId'),
  reason: v.picklist(reportReasons, 'missing.reason'),
  description: v.optional(
    v.pipe(
      v.string('INVALID_VALUE.description'),
      v.trim(),
      v.maxLength(REPORT_DESCRIPTION_MAX, lengthKey('description', { max: REPORT_DESCRIPTION_MAX })),
    ),
    '',
  ),
});
export type StorefrontReportInput = v.InferOutput<typeof StorefrontReportInput>;

/** GET queries/storefront-share. */
export const StorefrontShareQuery = v.object({
  storefrontId: uuid('storefrontId'),
  caption: v.optional(
    v.pipe(v.string('INVALID_VALUE.caption'), v.maxLength(200, lengthKey('caption', { max: 200 }))),
  ),
});
