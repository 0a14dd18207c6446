import type { FormEvent } from 'react';
import type { ApiErrorBody } from '#domain/errors';

/** The named values of a submitted form. */
export function formValues(e: FormEvent<HTMLFormElement>, names: string[]): Record<string, string> {
  e.preventDefault();
  const data = new FormData(e.currentTarget);
  return Object.fromEntries(names.map((n) => [n, String(data.get(n) ?? '')]));
}

/**
 * SPEC §5: account form errors show only when the field is non-empty; empty required fields are
 * reported once as "Please fill in all the required information" (key `_required`).
 */
export function visibleErrors(values: Record<string, string>, errors: Record<string, ApiErrorBody>) {
  const shown: Record<string, string | undefined> = {};
  for (const [field, err] of Object.entries(errors)) {
    if ((values[field] ?? '').trim() !== '') shown[field] = err.message;
    else shown._required = 'required';
  }
  return shown;
}
