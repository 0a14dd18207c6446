import type { FormEvent } from 'react';

/** The named values of a submitted form. */
export function formValues(e: FormEvent<HTMLFormElement>, names: string[]): Record<string, string> {
  e.preventDefault();
  const data = new FormData(e.currentTarget);
  return Object.fromEntries(names.map((n) => [n, String(data.get(n) ?? '')]));
}
