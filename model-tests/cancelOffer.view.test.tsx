import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectCancelOffer } from '../machines/cancelOffer';
import { CancelOfferDialog } from '../src/views/offers/OfferPanels';
import { cancelOfferModel } from './cancelOffer.model';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';

/** Cancel-offer paths through the dialog: pressing its buttons, reading the dialog. */
async function perform(step: PathStep) {
  switch (step.event.type) {
    case 'offer.cancel':
      return clickFirst('Cancel offer');
    case 'offer.retry':
      return clickFirst('Try again');
    case 'offer.close':
      return clickFirst('Keep offer', 'Close', 'Done');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const view = connectCancelOffer(expected as never, () => {});
  const dialog = screen.queryByRole('dialog');
  if (view.panel === 'done') return expect(dialog).toBeNull();
  expect(dialog).not.toBeNull();
  const text = dialog!.textContent ?? '';
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(view.title);
  expect(screen.queryAllByRole('alert').map((el) => el.textContent)).toEqual([view.error].filter(Boolean));
  expect(text).toContain(view.text);
  expect(screen.queryByRole('button', { name: 'Cancel offer' }) !== null).toBe(view.panel === 'confirming');
  expect(screen.getAllByRole('button', { name: view.closeLabel }).length).toBeGreaterThan(0);
  if (view.status) expect(text).toContain(view.status);
}

describe('cancel-offer paths through the dialog', () => {
  for (const path of coveringPaths(cancelOfferModel)) {
    it(path.description, () =>
      runPath(cancelOfferModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <CancelOfferDialog actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
