import { fireEvent, screen } from '@testing-library/react';

/**
 * DOM gestures for the view path tests. Each one throws when its control is missing or disabled: a
 * view run has no fallback for a user event (see runPath in harness.ts and docs/testing.md).
 */

function usable<T extends HTMLElement>(element: T, what: string): T {
  if ((element as unknown as { disabled?: boolean }).disabled) throw new Error(`${what} is disabled`);
  return element;
}

/** Clicks the first button on screen named one of `names` (tried in that order). */
export function clickFirst(...names: Array<string | RegExp>): true {
  for (const name of names) {
    const button = screen.queryAllByRole('button', { name })[0];
    if (button) {
      fireEvent.click(usable(button, `The button "${name}"`));
      return true;
    }
  }
  throw new Error(
    `No button named ${names.map((n) => `"${n}"`).join(' or ') || '(none given)'} is on screen`,
  );
}

/** Clicks a control (a radio, a checkbox, a switch) that must be on screen and enabled. */
export function clickControl(element: HTMLElement | null | undefined, what: string): true {
  if (!element) throw new Error(`${what} is not on screen`);
  fireEvent.click(usable(element, what));
  return true;
}

/**
 * Types `value` into a text field. When the field shows that text already, a browser raises no
 * change for it: the user types a character and deletes it again, which ends on the same text.
 */
export function typeInto(
  field: HTMLInputElement | HTMLTextAreaElement | null | undefined,
  value: string,
  what = 'The field',
): true {
  if (!field) throw new Error(`${what} is not on screen`);
  usable(field, what);
  if (field.readOnly) throw new Error(`${what} is read-only`);
  if (field.value === value) fireEvent.change(field, { target: { value: `${value}x` } });
  fireEvent.change(field, { target: { value } });
  return true;
}
