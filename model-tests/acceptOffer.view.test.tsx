import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectAcceptOffer } from '../machines/acceptOffer';
import { AcceptOfferDialog } from '../src/views/offers/OfferPanels';
import { acceptOfferModel } from './acceptOffer.model';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';

/** Accept-offer paths through the dialog: pressing its buttons, reading the dialog. */
async function perform(step: PathStep) {
  switch (step.event.type) {
    case 'offer.accept':
      return clickFirst('Accept offer');
    case 'offer.retry':
      return clickFirst('Try again');
    case 'offer.close':
      return clickFirst('Cancel', 'Close', 'Done');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const view = connectAcceptOffer(expected as never, () => {});
  const dialog = screen.queryByRole('dialog');
  if (view.panel === 'done') return expect(dialog).toBeNull();
  expect(dialog).not.toBeNull();
  const text = dialog!.textContent ?? '';
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(view.title);
  expect(screen.queryAllByRole('alert').map((el) => el.textContent)).toEqual([view.error].filter(Boolean));
  expect(text).toContain(view.text);
  expect(text.includes(`You receive${view.summary.net}`)).toBe(view.panel === 'review');
  expect(screen.queryByRole('button', { name: 'Accept offer' }) !== null).toBe(view.panel === 'review');
  expect(screen.queryByRole('link', { name: 'Verify identity' }) !== null).toBe(view.panel === 'kycRequired');
  expect(screen.getAllByRole('button', { name: view.closeLabel }).length).toBeGreaterThan(0);
  if (view.status) expect(text).toContain(view.status);
}

describe('accept-offer paths through the dialog', () => {
  for (const path of coveringPaths(acceptOfferModel)) {
    it(path.description, () =>
      runPath(acceptOfferModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <AcceptOfferDialog actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
