import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectRemoveListing } from '../machines/removeListing';
import { RemoveListingDialog } from '../src/views/nft/ListingPanels';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { removeListingModel } from './removeListing.model';
import { renderWithRouter } from './router';

const buttons: Record<string, string[]> = {
  'listing.remove.confirm': ['Remove listing'],
  'listing.retry': ['Try again'],
  'listing.close': ['Cancel', 'Close', 'Done'],
};

/** Remove-listing paths through the confirmation dialog. */
async function perform(step: PathStep) {
  const names = buttons[step.event.type];
  return names ? clickFirst(...names) : false;
}

/** The dialog shows what the view model of the expected snapshot says, and nothing once it is over. */
function check(expected: AnyMachineSnapshot) {
  const view = connectRemoveListing(expected as never, () => {});
  const dialog = screen.queryByRole('dialog');
  if (view.panel === 'done') return expect(dialog).toBeNull();
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(view.title);
  expect(dialog!.textContent).toContain(view.text);
  if (view.status) expect(dialog!.textContent).toContain(view.status);
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  expect(alerts).toEqual(view.error ? [view.error] : []);
  const remove = screen.queryByRole('button', { name: 'Remove listing' });
  expect(remove !== null).toBe(view.panel === 'confirming');
  if (remove) expect(remove.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  if (view.panel === 'removed') expect(screen.getByRole('button', { name: 'Done' })).toBeTruthy();
  else {
    const close = screen
      .getAllByRole<HTMLButtonElement>('button', { name: view.closeLabel })
      .find((b) => b.textContent === view.closeLabel);
    expect(close?.disabled).toBe(view.getCloseButtonProps().disabled);
  }
}

describe('remove-listing paths through the dialog', () => {
  for (const path of coveringPaths(removeListingModel)) {
    it(path.description, () =>
      runPath(removeListingModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <RemoveListingDialog actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
