/**
 * Dates on the wire: the server writes ISO strings; the client turns every string matching
 * the ISO pattern into a Date as it parses a response. Shared types therefore say `DateValue`.
 */
export type DateValue = string | Date;

export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** JSON.parse reviver: ISO date-time strings become Dates. */
export function reviveDates(_key: string, value: unknown): unknown {
  return typeof value === 'string' && ISO_DATE_TIME.test(value) ? new Date(value) : value;
}

/** A DateValue as a Date. */
export const toDate = (value: DateValue): Date => (value instanceof Date ? value : new Date(value));
