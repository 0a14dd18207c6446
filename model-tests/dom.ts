import { fireEvent, screen } from '@testing-library/react';

/** Clicks the first button on screen named one of `names` (in that order); false when none is. */
export function clickFirst(...names: Array<string | RegExp>): boolean {
  for (const name of names) {
    const button = screen.queryAllByRole('button', { name })[0];
    if (button) {
      fireEvent.click(button);
      return true;
    }
  }
  return false;
}
