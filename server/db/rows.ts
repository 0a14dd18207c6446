import { Column, is, noopDecoder, SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** A field of a prepared select as drizzle keeps it: where its value goes, and what decodes it. */
interface SelectedField {
  path: string[];
  field: unknown;
}
interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/**
 * A column decodes its own values; an SQL expression (aliased or not) carries its decoder. Undefined
 * when it takes the driver's value as it is (text, uuid, boolean and enum columns, a plain SQL
 * expression): that is most of a card's columns, and a call per value costs more than the rest.
 */
function decoderOf(field: unknown): Decoder | undefined {
  const expression = is(field, SQL) ? field : (field as { sql?: SQL }).sql;
  const decoder = is(field, Column) ? field : (expression as unknown as { decoder: Decoder }).decoder;
  const identity =
    decoder.mapFromDriverValue === Column.prototype.mapFromDriverValue ||
    decoder.mapFromDriverValue === noopDecoder.mapFromDriverValue;
  return identity ? undefined : decoder;
}

/**
 * Has a prepared select map its rows by a plan made once instead of drizzle's own mapping, which
 * works out each field's kind and walks its path again for every value of every row: for a page of
 * 24 blueprints with their storefronts that cost about a third of a millisecond per request.
 *
 * The selection is flat or one level of nesting (`{ total, blueprint: {...}, storefront: {...} }`),
 * as drizzle's select types allow. A nested object whose values are all null (the side of a left
 * join that found nothing) is null, as drizzle answers it.
 *
 * It uses the prepared query's `fields` and `customResultMapper`, the hook drizzle's relational
 * queries map their rows with: were a drizzle release to rename them, the statement keeps drizzle's
 * own mapping (the same rows, only slower).
 */
export function mapRowsByPlan<T extends object>(prepared: T): T {
  const query = prepared as { fields?: SelectedField[]; customResultMapper?: (rows: unknown[][]) => unknown };
  const fields = query.fields;
  if (!Array.isArray(fields) || !('customResultMapper' in query) || query.customResultMapper) return prepared;
  const plan = fields.map(({ path, field }) => ({
    outer: path.length === 2 ? path[0]! : undefined,
    key: path.at(-1)!,
    decoder: decoderOf(field),
  }));
  const outers = [...new Set(plan.flatMap((p) => (p.outer === undefined ? [] : [p.outer])))];
  query.customResultMapper = (rows) =>
    rows.map((row) => {
      const result: Record<string, unknown> = {};
      const nested: Record<string, Record<string, unknown>> = {};
      const found: Record<string, boolean> = {};
      for (const outer of outers) {
        nested[outer] = {};
        found[outer] = false;
      }
      for (let i = 0; i < plan.length; i++) {
        const { outer, key, decoder } = plan[i]!;
        const raw = row[i];
        const value = raw === null || !decoder ? raw : decoder.mapFromDriverValue(raw);
        if (outer === undefined) result[key] = value;
        else {
          nested[outer]![key] = value;
          if (value !== null) found[outer] = true;
        }
      }
      for (const outer of outers) result[outer] = found[outer] ? nested[outer] : null;
      return result;
    });
  return prepared;
}

/**
 * ISO 8601 text of a timestamp as PostgreSQL writes it (`2026-11-26 15:25:38.268776+00`), exactly
 * as `Date.toISOString` writes the same instant: milliseconds, the rest of the fraction dropped, as
 * `new Date` drops it. Text in UTC is rewritten as it is; any other (a session in another time zone)
 * goes through a Date, as drizzle reads a timestamp column. A value that is already a Date is
 * written as it is.
 */
export function isoFromDriver(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  const utc = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/.exec(text);
  if (!utc) return new Date(text).toISOString();
  return `${utc[1]}T${utc[2]}.${`${utc[3] ?? ''}000`.slice(0, 3)}Z`;
}

/**
 * A timestamp column selected as its ISO text (what an answer shows), for lists read often: making
 * a Date from PostgreSQL's text and writing it out again costs about a microsecond per value.
 */
export const isoText = (column: AnyPgColumn) => sql<string>`${column}`.mapWith(isoFromDriver);
