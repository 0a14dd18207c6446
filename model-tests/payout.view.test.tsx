import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorTexts } from '#domain/errors';
import { formatUsd } from '#domain/money';
import { payoutStateLabels } from '#domain/sales';
import type { PayoutContext } from '../machines/payout';
import { formatRequestDate, PayoutsView } from '../src/views/payouts/PayoutsPage';
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
      return clickFirst(actor.getSnapshot().value === 'requesting' ? 'Cancel' : 'Keep request');
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
  const state = expected.value as string;
  const c = expected.context as PayoutContext;
  const failureText = c.error ? c.error.message || errorTexts['errors.default'] : null;

  if (state === 'loadFailed') {
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Your payouts could not be loaded');
    expect(alert.textContent).toContain(failureText);
    expect(requestButton()).toBeUndefined();
    return;
  }
  if (state === 'loading' && c.requests.length === 0 && c.total === 0) {
    expect(screen.getByRole('status', { name: 'Loading payouts' })).toBeTruthy();
    expect(requestButton()).toBeUndefined();
    return;
  }

  // The list and the funds.
  expect(screen.getByTestId('available').textContent).toBe(formatUsd(c.available));
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
  const open = c.requests.some((r) => r.state === 'created' || r.state === 'pending');
  const page = document.querySelector('section.vt-payouts')!;
  const request = within(page as HTMLElement).getByRole('button', { name: 'Request payout' });
  const busy = state === 'loading' || state === 'submitting' || state === 'cancelling';
  expect((request as HTMLButtonElement).disabled).toBe(open || c.available < c.minimum || busy);
  expect(page.getAttribute('aria-busy')).toBe(busy ? 'true' : null);
  if (open) expect(page.textContent).toContain('You have a payout request in progress');
  else if (c.available < c.minimum)
    expect(page.textContent).toContain('You can request a payout once you have at least $10 available.');

  // Dialogs.
  const d = dialog();
  if (state === 'requesting' || state === 'submitting') {
    expect(within(d!).getByRole('heading', { level: 2 }).textContent).toBe('Request payout');
    expect(amountInput().value).toBe(c.amount);
    const alerts = within(d!)
      .queryAllByRole('alert')
      .map((a) => a.textContent);
    expect(alerts).toEqual(failureText ? [failureText] : []);
    expect(button('Send request').getAttribute('aria-busy')).toBe(state === 'submitting' ? 'true' : null);
  } else if (state === 'confirmingCancel' || state === 'cancelling') {
    expect(within(d!).getByRole('heading', { level: 2 }).textContent).toBe('Cancel this payout request?');
    const amount = c.requests.find((r) => r.id === c.cancelId)!.amount;
    expect(d!.textContent).toContain(`The request of ${formatUsd(amount)} will be cancelled`);
    expect(button('Cancel request').getAttribute('aria-busy')).toBe(state === 'cancelling' ? 'true' : null);
  } else if (state === 'failed') {
    expect(within(d!).getByRole('heading', { level: 2 }).textContent).toBe(
      c.failure === 'cancel' ? 'The request was not cancelled' : 'The payout was not requested',
    );
    expect(d!.textContent).toContain(failureText);
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
