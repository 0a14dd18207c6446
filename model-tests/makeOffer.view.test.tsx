import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectMakeOffer } from '../machines/makeOffer';
import { MakeOfferDialog } from '../src/views/offers/OfferPanels';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst, typeInto } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { makeOfferModel } from './makeOffer.model';
import { renderWithRouter } from './router';

const AMOUNT = 'Your offer (USD)';

/** Make-offer paths through the dialog: typing an amount, picking an expiry, pressing the buttons. */
async function perform(step: PathStep) {
  const e = step.event as { type: string; value?: string; days?: number };
  switch (e.type) {
    case 'offer.amount.change':
      return typeInto(screen.queryByLabelText<HTMLInputElement>(AMOUNT), e.value!, AMOUNT);
    case 'offer.expiry.change':
      return clickControl(
        screen.queryByRole('radio', { name: `${e.days} days` }),
        `The ${e.days} days radio`,
      );
    case 'offer.review':
      return clickFirst('Review offer');
    case 'offer.back':
      return clickFirst('Back');
    case 'offer.confirm':
      return clickFirst('Make offer');
    case 'offer.retry':
      return clickFirst('Try again');
    case 'offer.close':
      return clickFirst('Cancel', 'Close', 'Done');
    default:
      return false;
  }
}

/** The dialog shows what the view model of the expected snapshot says, and nothing once it is over. */
function check(expected: AnyMachineSnapshot) {
  const view = connectMakeOffer(expected as never, () => {});
  const dialog = screen.queryByRole('dialog');
  if (view.panel === 'done') return expect(dialog).toBeNull();
  expect(dialog).not.toBeNull();
  const text = dialog!.textContent ?? '';
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(view.title);
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  expect(alerts).toEqual([view.amountError, view.error].filter(Boolean));
  const field = screen.queryByLabelText<HTMLInputElement>(AMOUNT);
  expect(field === null).toBe(view.panel !== 'form');
  if (field) {
    expect(field.value).toBe(expected.context.amount);
    expect(field.getAttribute('aria-invalid')).toBe(view.amountError ? 'true' : null);
    const picked = screen.getAllByRole<HTMLInputElement>('radio').filter((r) => r.checked);
    expect(picked.map((r) => r.labels?.[0]?.textContent)).toEqual([`${expected.context.expiryDays} days`]);
  }
  if (view.panel === 'review') {
    expect(text).toContain(`Your offer${view.review.amount}`);
    expect(text).toContain(`Expires in${view.review.expiry}`);
    expect(screen.getByRole('button', { name: 'Make offer' }).getAttribute('aria-busy')).toBe(
      view.busy ? 'true' : null,
    );
  }
  const showsBalance = view.panel === 'form' || view.panel === 'review';
  expect(text.includes('Your balance')).toBe(showsBalance && view.balance !== null);
  if (view.balanceNote && showsBalance) expect(text).toContain(view.balanceNote);
  if (view.status) expect(text).toContain(view.status);
  if (view.panel === 'made') expect(text).toContain(view.madeText);
}

describe('make-offer paths through the dialog', () => {
  for (const path of coveringPaths(makeOfferModel)) {
    it(path.description, () =>
      runPath(makeOfferModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <MakeOfferDialog actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
