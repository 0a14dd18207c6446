import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '#domain/errors';
import { RemoveListingDialog } from '../src/views/nft/ListingPanels';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { removeListingModel } from './removeListing.model';
import { renderWithRouter } from './router';

const buttons: Record<string, string[]> = {
  'listing.remove.confirm': ['Remove listing'],
  'listing.retry': ['Try again'],
  'listing.close': ['Cancel', 'Close'],
};

/** Remove-listing paths through the confirmation dialog. */
async function perform(step: PathStep) {
  const names = buttons[step.event.type];
  return names ? clickFirst(...names) : false;
}

function check(expected: AnyMachineSnapshot) {
  const state = expected.value as string;
  if (state === 'closed') return expect(screen.queryByRole('dialog')).toBeNull();
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
    state === 'removed' ? 'Removed from the marketplace' : 'Remove listing',
  );
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  if (expected.context.error) expect(alerts).toEqual([errorMessage(expected.context.error)]);
  else expect(alerts).toEqual([]);
  if (state === 'signing' || state === 'recording')
    expect(screen.getByRole('button', { name: 'Remove listing' }).getAttribute('aria-busy')).toBe('true');
}

describe('remove-listing paths through the dialog', () => {
  for (const path of coveringPaths(removeListingModel)) {
    it(path.description, () =>
      runPath(removeListingModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => <RemoveListingDialog actor={actor as never} onDone={() => {}} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
