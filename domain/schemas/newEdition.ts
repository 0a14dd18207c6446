import * as v from 'valibot';
import { exactlyOneOf } from '../validation';

const uuid = (field: string) => v.pipe(v.string(`INVALID_VALUE.${field}`), v.uuid(`INVALID_VALUE.${field}`));

/** The key a client sends with a payment, 8 to 64 of A–Z, a–z, 0–9, _ and -: a retry has no second effect. */
export const IdempotencyKey = v.pipe(
  v.string('INVALID_VALUE.idempotencyKey'),
  v.regex(/^[\w-]{8,64}$/, 'INVALID_VALUE.idempotencyKey'),
);

/**
 * The body of a new edition's payment on one rail: the rail's own fields, then exactly one of
 * `blueprintId` or `blueprintPackId` (INVALID_VALUE.item otherwise), the price the buyer saw in
 * cents (from `minPrice` to $1,000,000; the server answers PRICE_CHANGED when it moved) and the
 * idempotency key.
 */
export function newEditionBody<const E extends v.ObjectEntries>(minPrice: number, entries: E) {
  return v.pipe(
    exactlyOneOf(
      v.object({
        ...entries,
        blueprintId: v.optional(uuid('blueprintId')),
        blueprintPackId: v.optional(uuid('blueprintPackId')),
        expectedPrice: v.pipe(
          v.number('INVALID_VALUE.expectedPrice'),
          v.integer('INVALID_VALUE.expectedPrice'),
          v.minValue(minPrice, 'INVALID_VALUE.expectedPrice'),
          v.maxValue(100_000_000, 'INVALID_VALUE.expectedPrice'),
        ),
        idempotencyKey: IdempotencyKey,
      }),
      'blueprintId',
      'blueprintPackId',
    ),
    v.check((b) => !!b.blueprintId !== !!b.blueprintPackId, 'INVALID_VALUE.item'),
  );
}
