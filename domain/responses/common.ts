import * as v from 'valibot';
import { type DateValue, ISO_DATE_TIME } from '../dates';
import { documented } from '../validation';

/**
 * Building blocks of the API's response schemas. A response schema describes the JSON of a success
 * answer; its output type is what the browser's client (domain/contract.ts) reads, so one definition
 * serves the server's document, the API tests' check of every answer, and the browser's types.
 */

/**
 * A date-time: ISO text on the wire (e.g. 2026-01-31T12:00:00.000Z), which the browser's client
 * revives into a Date as it parses an answer (domain/dates.ts), hence DateValue.
 */
export const DateTime = v.pipe(
  v.union([v.pipe(v.string(), v.regex(ISO_DATE_TIME)), v.date()]),
  documented<DateValue>({ type: 'string', format: 'date-time' }),
);

/** A whole number of at least 0 (cents, counts, editions). */
export const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
/** Any JSON number (rates, percentages). */
export const Num = v.number();

/** `{ results, total }` of one page of a list. */
export const pageOf = <S extends v.GenericSchema>(item: S) =>
  v.object({ results: v.array(item), total: Count });

/** `{ results }` of a whole (short) list. */
export const resultsOf = <S extends v.GenericSchema>(item: S) => v.object({ results: v.array(item) });

/**
 * A webhook's acknowledgement: also for an event recorded before (duplicate), one about nothing of
 * ours (ignored: why), or one the provider did not confirm when asked (confirmed: false).
 */
export const Received = v.object({
  received: v.literal(true),
  duplicate: v.optional(v.literal(true)),
  ignored: v.optional(v.string()),
  confirmed: v.optional(v.literal(false)),
});

/** `{ url }` (an address the browser goes to or reads). */
export const UrlAnswer = v.object({ url: v.string() });

/** A session token. */
export const AuthTokenAnswer = v.object({ authToken: v.string() });

/**
 * A success answer without a JSON body: 204 No Content, or another media type (a CSV file). The
 * browser's client answers undefined for the first and reads the second as text.
 */
export interface NotJson {
  notJson: true;
  /** The answer's media type; none for an answer without a body. */
  mediaType?: string;
}
export const noContent = { notJson: true } as const;
export const textAnswer = <M extends string>(mediaType: M) => ({ notJson: true, mediaType }) as const;

/** What a route declares of its success answers (server/http.ts defineRoute's `response`). */
export type ResponseSchema = v.GenericSchema | NotJson;
export const isNotJson = (schema: ResponseSchema): schema is NotJson => 'notJson' in schema;
