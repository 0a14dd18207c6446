import * as v from 'valibot';
import type { ApiErrorBody } from './errors';
import { errorMessage } from './errors';

/** An error key: CODE, CODE.field, and the values its text names after a "?" ("?maxLength=200"). */
export const ERROR_KEY = /^([A-Za-z_]+)(?:\.([A-Za-z_]\w*))?(?:\?(\w+=\d+(?:&\w+=\d+)*))?$/;

/**
 * Valibot messages in this project are error keys: "CODE" or "CODE.field", a length rule's with its
 * limits ("INVALID_VALUE.description?minLength=2&maxLength=2000", see lengthKey); the text shown for
 * a key is the length rule's own text, else the field's own text when there is one, else the code's.
 * These helpers turn issues into `{ code, field, message, params? }` bodies, one per field.
 */
export function issueToError(issue: v.BaseIssue<unknown>): ApiErrorBody {
  // A schema without a key message (e.g. a wrong type caught by v.string()) reads as INVALID_VALUE.
  const [, code = 'INVALID_VALUE', keyField, query] = ERROR_KEY.exec(issue.message) ?? [];
  const pathField = issue.path?.map((p) => String(p.key)).join('.');
  // The input's own path names the field (a password rule checked on newPassword is about newPassword).
  const field = pathField || keyField;
  const body: ApiErrorBody = { code, message: '' };
  if (field) body.field = field;
  if (query)
    body.params = Object.fromEntries(
      query.split('&').map((pair) => {
        const [name, value] = pair.split('=');
        return [name!, Number(value)];
      }),
    );
  body.message = errorMessage(body);
  return body;
}

/**
 * The error key of a length rule of a field: INVALID_VALUE.{field} with the limits, whose text names
 * them ("Description must be 2–2,000 characters.", "Email must be at most 40 characters.").
 */
export function lengthKey(field: string, limits: { min?: number; max?: number }): string {
  const params = [
    ...(limits.min === undefined ? [] : [`minLength=${limits.min}`]),
    ...(limits.max === undefined ? [] : [`maxLength=${limits.max}`]),
  ];
  return `INVALID_VALUE.${field}${params.length ? `?${params.join('&')}` : ''}`;
}

/** At least min and at most max characters, one error key naming both limits. */
export const lengthBetween = (field: string, min: number, max: number) => {
  const key = lengthKey(field, { min, max });
  return [
    v.minLength<string, number, string>(min, key),
    v.maxLength<string, number, string>(max, key),
  ] as const;
};

/** The first problem of one field's value under its schema, as the server would report it; null when valid. */
export function fieldError(field: string, schema: v.GenericSchema, value: unknown): ApiErrorBody | null {
  const r = v.safeParse(schema, value);
  return r.success ? null : issueToError({ ...r.issues[0], path: [{ key: field }] } as never);
}

/** The first error of a failed parse (what the API answers with). */
export function firstError(issues: readonly v.BaseIssue<unknown>[]): ApiErrorBody {
  return issueToError(issues[0]!);
}

/** One error per field (what forms show next to each input). */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): Record<string, ApiErrorBody> {
  const out: Record<string, ApiErrorBody> = {};
  for (const issue of issues) {
    const err = issueToError(issue);
    const key = err.field ?? '_';
    if (!out[key]) out[key] = err;
  }
  return out;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: Record<string, ApiErrorBody> };

export function validate<S extends v.GenericSchema>(schema: S, input: unknown): Validated<v.InferOutput<S>> {
  const r = v.safeParse(schema, input);
  return r.success ? { ok: true, value: r.output } : { ok: false, errors: fieldErrors(r.issues) };
}

/**
 * v.object whose missing keys report what their own schema says about undefined (e.g. EMAIL_MISSING
 * for a missing email) instead of valibot's generic "Invalid key"; any other object issue is INVALID_VALUE.
 */
export function fieldObject<const E extends v.ObjectEntries>(entries: E) {
  return v.object(entries, (issue) => {
    const key = issue.path?.at(-1)?.key;
    if (typeof key === 'string' && issue.expected === `"${key}"` && Object.hasOwn(entries, key)) {
      const missing = v.safeParse(entries[key]!, undefined);
      if (!missing.success) return missing.issues[0].message;
    }
    return 'INVALID_VALUE';
  });
}

/**
 * A trimmed text field of min to max characters; errors read INVALID_VALUE.{field}, a wrong length
 * naming the limits.
 */
export const textField = (field: string, min: number, max: number) =>
  v.pipe(v.string(`INVALID_VALUE.${field}`), v.trim(), ...lengthBetween(field, min, max));

/** The largest Cadence UInt64: token and listing ids, kept as decimal text. */
export const UINT64_MAX = 18_446_744_073_709_551_615n;
/**
 * The largest id a bigint column (signed 64-bit, up to 9223372036854775807) holds as the server
 * reads it: such columns are JavaScript numbers (drizzle mode 'number'), exact up to 2^53 − 1. A
 * larger id would be rounded to another one, and near 2^63 past the column's range.
 */
export const BIGINT_ID_MAX = BigInt(Number.MAX_SAFE_INTEGER);

const DECIMAL = /^\d{1,20}$/;

/**
 * The JSON Schema the API's document gives an input whose pipe changes its type (a query string read
 * as a number or a list, a decimal string also accepted as a number): valibot's conversion stops at
 * the first transform, so the pipe states the shape of what the server accepts itself.
 */
export const documented = <T>(schema: Record<string, unknown>) =>
  v.metadata<T, { openapi: Record<string, unknown> }>({ openapi: schema });

/**
 * "Exactly one of these keys" in the document of an object (valibot states it as a check, which the
 * conversion cannot read).
 */
export const exactlyOneOf = <S extends v.GenericSchema<object, object>>(schema: S, ...keys: string[]) =>
  v.pipe(
    schema,
    v.metadata<v.InferOutput<S>, { oneOf: { required: string[] }[] }>({
      oneOf: keys.map((key) => ({ required: [key] })),
    }),
  );

/**
 * A regex source matching the decimal strings of 0 to max (leading zeros allowed, at most 20
 * digits as DECIMAL): numbers with fewer digits than max, or as many digits and a smaller digit at
 * the first place they differ, or max itself.
 */
export function decimalAtMost(max: bigint): string {
  const digits = max.toString();
  const alternatives = digits.length > 1 ? [`\\d{1,${digits.length - 1}}`] : [];
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[i]);
    if (d === 0) continue;
    const rest = digits.length - i - 1;
    const lower = d === 1 ? '0' : `[0-${d - 1}]`;
    alternatives.push(`${digits.slice(0, i)}${lower}${rest > 0 ? `\\d{${rest}}` : ''}`);
  }
  alternatives.push(digits);
  const zeros = 20 - digits.length;
  return `^${zeros > 0 ? `0{0,${zeros}}` : ''}(?:${alternatives.join('|')})$`;
}

/**
 * A whole number in a query string (digits only, leading zeros allowed) from min to max; the output
 * is the number, anything else is INVALID_VALUE.{field}.
 */
export const queryInteger = (field: string, min: number, max = 999_999_999) =>
  v.pipe(
    v.string(`INVALID_VALUE.${field}`),
    documented<string>({ type: 'integer', minimum: min, maximum: max }),
    v.regex(/^\d{1,12}$/, `INVALID_VALUE.${field}`),
    v.transform(Number),
    v.minValue(min, `INVALID_VALUE.${field}`),
    v.maxValue(max, `INVALID_VALUE.${field}`),
  );

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A comma-separated list in a query string ("a,b"), each item one of the values or (with `item`)
 * matching the item pattern; empty items are dropped, items may be padded with spaces when `trim`,
 * at most `max` items. The output is the list of items.
 */
export function queryList<T extends string>(
  field: string,
  allowed: { values: readonly T[] } | { pattern: RegExp },
  options: { trim?: boolean; max?: number } = {},
) {
  const { trim = false, max = 100 } = options;
  const item =
    'values' in allowed
      ? allowed.values.map(escapeRegex).join('|')
      : allowed.pattern.source.replace(/^\^|\$$/g, '');
  const pad = trim ? '\\s*' : '';
  const one = `${pad}(?:${item})?${pad}`;
  const ok = (x: string) =>
    'values' in allowed ? (allowed.values as readonly string[]).includes(x) : allowed.pattern.test(x);
  return v.pipe(
    v.string(`INVALID_VALUE.${field}`),
    documented<string>({ type: 'string', pattern: `^${one}(?:,${one})*$` }),
    v.transform((s) => [
      ...new Set(
        s
          .split(',')
          .map((x) => (trim ? x.trim() : x))
          .filter(Boolean),
      ),
    ]),
    v.maxLength(max, `INVALID_VALUE.${field}`),
    v.check((list) => list.every(ok), `INVALID_VALUE.${field}`),
    v.transform((list) => list as T[]),
  );
}

/**
 * A whole number from 0 to max as a decimal string (a JSON number is accepted and read as one); the
 * output is the decimal string. Anything else, or a larger number, is INVALID_VALUE.{field}.
 */
export const decimalString = (field: string, max: bigint) =>
  v.pipe(
    // A JSON number past 2^53 − 1 is not exact (another id than the one written): only as text.
    v.union(
      [v.string(), v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER))],
      `INVALID_VALUE.${field}`,
    ),
    documented<string | number>({
      anyOf: [
        { type: 'string', pattern: decimalAtMost(max) },
        { type: 'integer', minimum: 0, maximum: Number(max < BIGINT_ID_MAX ? max : BIGINT_ID_MAX) },
      ],
    }),
    v.transform(String),
    v.regex(DECIMAL, `INVALID_VALUE.${field}`),
    // The regex's issue does not stop the pipe: BigInt only ever sees digits.
    v.check((s) => DECIMAL.test(s) && BigInt(s) <= max, `INVALID_VALUE.${field}`),
  );
