import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorTexts } from '#domain/errors';
import { formatUsd } from '#domain/money';
import { payoutStateLabels } from '#domain/sales';
import { connectPayout, formatRequestDate, type PayoutContext } from '../machines/payout';
import { PayoutsView } from '../src/views/payouts/PayoutsPage';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { payoutModel } from './payout.model';
import { renderWithRouter } from './router';

const dialog = () => screen.queryByRole('dialog');
const button = (name: string | RegExp) => {
  const found = screen.queryAllByRole('button', { name })[0];
  if (!found) throw new Error(`No "${name}" button on screen`);
  return found;
};
const amountInput = () => within(dialog()!).getByLabelText<HTMLInputElement>('Amount (USD)');
const requestButton = () => screen.queryAllByRole('button', { name: 'Request payout' })[0];

/** Payout paths through the page: every user event is a click or typing; actor outcomes are not. */
async function perform(step: PathStep, actor: AnyActorRef) {
  const e = step.event as { type: string; amount?: string; id?: string };
  const context = actor.getSnapshot().context as PayoutContext;
  switch (e.type) {
    case 'payout.request':
      return clickFirst('Request payout');
    case 'payout.submit':
      fireEvent.change(amountInput(), { target: { value: e.amount } });
      return clickFirst('Send request');
    case 'payout.close':
      return clickFirst('Keep request', 'Cancel');
    case 'payout.cancel': {
      const request = context.requests.find((r) => r.id === e.id);
      if (!request) throw new Error(`No payout request ${e.id} in the list`);
      return clickFirst(`Cancel the payout request of ${formatUsd(request.amount)}`);
    }
    case 'payout.cancel.confirm':
      return clickFirst('Cancel request');
    case 'payout.dismiss':
      return clickFirst('Done');
    case 'payout.retry':
      return clickFirst('Try again');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const view = connectPayout(expected as never, () => {});
  const c = expected.context as PayoutContext;

  if (view.panel === 'loadFailed') {
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Your payouts could not be loaded');
    expect(alert.textContent).toContain(view.loadError);
    expect(requestButton()).toBeUndefined();
    return;
  }
  if (view.panel === 'loading') {
    expect(screen.getByRole('status', { name: 'Loading payouts' })).toBeTruthy();
    expect(requestButton()).toBeUndefined();
    return;
  }

  // The list and the funds, as the server sent them.
  expect(screen.getByTestId('available').textContent).toBe(formatUsd(c.available));
  expect(view.available).toBe(formatUsd(c.available));
  const rows = screen.queryAllByTestId('payout-row');
  expect(rows.map((r) => r.textContent)).toEqual(
    c.requests.map(
      (r) =>
        `${formatRequestDate(r.createdAt)}${formatUsd(r.amount)}${payoutStateLabels[r.state]}${
          r.state === 'created' ? 'Cancel' : ''
        }`,
    ),
  );
  if (c.requests.length === 0) expect(screen.getByText('No payout requests yet')).toBeTruthy();
  const page = document.querySelector('section.vt-payouts')!;
  const request = within(page as HTMLElement).getByRole('button', { name: 'Request payout' });
  expect((request as HTMLButtonElement).disabled).toBe(view.getRequestButtonProps().disabled);
  expect(page.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  expect(page.textContent).toContain(view.note);
  const open = c.requests.some((r) => r.state === 'created' || r.state === 'pending');
  if (open) expect(view.note).toContain('You have a payout request in progress');
  else if (c.available < c.minimum)
    expect(view.note).toBe('You can request a payout once you have at least $10 available.');
  if (!view.getRequestButtonProps().disabled) expect(open || c.available < c.minimum).toBe(false);

  // Dialogs.
  const d = dialog();
  if (view.form) {
    expect(within(d!).getByRole('heading', { level: 2 }).textContent).toBe('Request payout');
    expect(amountInput().value).toBe(c.amount);
    const alerts = within(d!)
      .queryAllByRole('alert')
      .map((a) => a.textContent);
    expect(alerts).toEqual(view.form.error ? [view.form.error] : []);
    expect(button('Send request').getAttribute('aria-busy')).toBe(view.form.submitting ? 'true' : null);
  } else if (view.confirmCancel) {
    expect(within(d!).getByRole('heading', { level: 2 }).textContent).toBe('Cancel this payout request?');
    const amount = c.requests.find((r) => r.id === c.cancelId)!.amount;
    expect(d!.textContent).toContain(`The request of ${formatUsd(amount)} will be cancelled`);
    expect(button('Cancel request').getAttribute('aria-busy')).toBe(view.confirmCancel.busy ? 'true' : null);
  } else if (view.failure) {
    expect(within(d!).getByRole('heading', { level: 2 }).textContent).toBe(view.failure.title);
    expect(d!.textContent).toContain(c.error?.message || errorTexts['errors.default']);
  } else {
    expect(d).toBeNull();
  }
}

describe('payout paths through the payouts page', () => {
  for (const path of coveringPaths(payoutModel)) {
    it(path.description, () =>
      runPath(payoutModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <PayoutsView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
