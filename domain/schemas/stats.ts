import * as v from 'valibot';

/** GET storefronts/{id}/stats: the storefront's id. */
export const StorefrontStatsParams = v.object({
  id: v.pipe(v.string('INVALID_VALUE.id'), v.uuid('INVALID_VALUE.id')),
});
