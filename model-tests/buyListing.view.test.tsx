import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectBuyListing } from '../machines/buyListingView';
import { BuyListingDialog } from '../src/views/nft/ListingPanels';
import { buyListingModel } from './buyListing.model';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath, unusedViewless, type ViewlessEvent } from './harness';
import { renderWithRouter } from './router';

const buttons: Record<string, string[]> = {
  'buy.submit': ['Pay $25'],
  'buy.retry': ['Try again', 'Check balance again'],
  'buy.close': ['Cancel', 'Close'],
};

/** Buy-listing paths through the dialog: the terms checkbox, pay, top up, retry and close. */
const topupButton = /^Add \$[\d.,]+ with crypto$/;

async function perform(step: PathStep) {
  if (step.event.type === 'buy.acknowledge')
    return clickControl(screen.queryByRole<HTMLInputElement>('checkbox'), 'The terms checkbox');
  if (step.event.type === 'buy.topup') return clickFirst(topupButton);
  const names = buttons[step.event.type];
  return names ? clickFirst(...names) : false;
}

/** User events this dialog has no control for (the harness sends them; see docs/testing.md). */
const viewless: ViewlessEvent[] = [
  {
    event: 'buy.acknowledge',
    when: (e, before) => e.value === before.context.acknowledged,
    reason:
      'a click always flips the terms checkbox, so no gesture sets it to what it already is; the machine ' +
      'takes it (clearing the error) and the graph explores it',
  },
];

/** The dialog shows what the view model of the expected snapshot says, and nothing once it is over. */
function check(expected: AnyMachineSnapshot) {
  const view = connectBuyListing(expected as never, () => {});
  if (view.panel === 'done') return expect(screen.queryByRole('dialog')).toBeNull();
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(view.title);
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  expect(alerts).toEqual(view.error ? [view.error] : []);
  const text = screen.getByRole('dialog').textContent ?? '';
  for (const shown of [view.balance, view.shortfall, view.status, view.note, view.topupNote])
    if (shown) expect(text).toContain(shown);
  const box = screen.queryByRole<HTMLInputElement>('checkbox');
  expect(box?.checked ?? null).toBe(view.panel === 'confirm' ? view.acknowledged : null);
  if (box) expect(box.disabled).toBe(!view.canAcknowledge);
  if (box) expect(box.getAttribute('data-state')).toBe(view.acknowledged ? 'checked' : 'unchecked');
  expect(screen.queryByRole('link', { name: 'View my collection' }) !== null).toBe(
    view.panel === 'purchased',
  );
  const pay = screen.queryByRole('button', { name: view.payLabel });
  expect(pay !== null).toBe(view.panel === 'confirm');
  if (pay) expect(pay.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  if (pay)
    expect(pay.getAttribute('data-state')).toBe(view.busy ? 'busy' : view.canPay ? 'idle' : 'disabled');
  const retry = view.retryButton;
  if (retry)
    expect((screen.getByRole('button', { name: retry.label }) as HTMLButtonElement).disabled).toBe(
      !retry.enabled,
    );
  if (view.topupButton) {
    const topup = screen.getByRole<HTMLButtonElement>('button', { name: view.topupButton.label });
    expect(topup.disabled).toBe(!view.topupButton.enabled);
    expect(topup.getAttribute('aria-busy')).toBe(view.topupButton.loading ? 'true' : null);
  } else expect(screen.queryByRole('button', { name: topupButton })).toBeNull();
}

describe('buy-listing paths through the dialog', () => {
  for (const path of coveringPaths(buyListingModel)) {
    it(path.description, () =>
      runPath(buyListingModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <BuyListingDialog actor={actor as never} />),
        perform,
        viewless,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  it('has no unused viewless events', () => expect(unusedViewless(viewless)).toEqual([]));
  afterAll(() => flushCoverage('view'));
});
