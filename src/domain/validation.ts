import * as v from 'valibot';
import type { ApiErrorBody } from './errors';
import { errorMessage } from './errors';

const ERROR_KEY = /^[A-Za-z_]+(\.[A-Za-z_]\w*)?$/;

/**
 * Valibot messages in this project are error keys: "CODE" or "CODE.field" (SPEC §8 display rule).
 * These helpers turn issues into `{ code, field, message }` bodies, one per field.
 */
export function issueToError(issue: v.BaseIssue<unknown>): ApiErrorBody {
  // A schema without a key message (e.g. a wrong type caught by v.string()) reads as INVALID_VALUE.
  const key = ERROR_KEY.test(issue.message) ? issue.message : 'INVALID_VALUE';
  const [code = 'INVALID_VALUE', keyField] = key.split('.', 2);
  const pathField = issue.path?.map((p) => String(p.key)).join('.');
  // The input's own path names the field (a password rule checked on newPassword is about newPassword).
  const field = pathField || keyField;
  const body: ApiErrorBody = { code, message: '' };
  if (field) body.field = field;
  body.message = errorMessage(body);
  return body;
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

/** A trimmed text field of min to max characters; errors read INVALID_VALUE.{field}. */
export const textField = (field: string, min: number, max: number) =>
  v.pipe(
    v.string(`INVALID_VALUE.${field}`),
    v.trim(),
    v.minLength(min, `INVALID_VALUE.${field}`),
    v.maxLength(max, `INVALID_VALUE.${field}`),
  );

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
 * A whole number from 0 to max as a decimal string (a JSON number is accepted and read as one); the
 * output is the decimal string. Anything else, or a larger number, is INVALID_VALUE.{field}.
 */
export const decimalString = (field: string, max: bigint) =>
  v.pipe(
    v.union([v.string(), v.pipe(v.number(), v.integer(), v.minValue(0))], `INVALID_VALUE.${field}`),
    v.transform(String),
    v.regex(DECIMAL, `INVALID_VALUE.${field}`),
    // The regex's issue does not stop the pipe: BigInt only ever sees digits.
    v.check((s) => DECIMAL.test(s) && BigInt(s) <= max, `INVALID_VALUE.${field}`),
  );
