import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '#domain/errors';
import { formatUsd } from '#domain/money';
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

function check(expected: AnyMachineSnapshot) {
  const state = expected.value as string;
  if (state === 'closed') return expect(screen.queryByRole('dialog')).toBeNull();
  expect(screen.getByRole('heading', { level: 2 }).textContent).toBe(
    state === 'purchased' ? 'Purchase Complete' : 'Buy for $25',
  );
  const alerts = screen.queryAllByRole('alert').map((el) => el.textContent);
  if (expected.context.error) expect(alerts).toEqual([errorMessage(expected.context.error)]);
  else expect(alerts).toEqual([]);
  const text = screen.getByRole('dialog').textContent ?? '';
  if (expected.context.balance !== null && state !== 'purchased')
    expect(text).toContain(formatUsd(expected.context.balance));
  const box = screen.queryByRole<HTMLInputElement>('checkbox');
  if (['confirming', 'signing', 'recording'].includes(state))
    expect(box?.checked).toBe(expected.context.acknowledged);
  else expect(box).toBeNull();
  if (state === 'purchased') expect(screen.getByRole('link', { name: 'View my collection' })).toBeTruthy();
  const topup = screen.queryByRole<HTMLButtonElement>('button', { name: topupButton });
  if (expected.can({ type: 'buy.topup' })) expect(topup?.disabled).toBe(false);
  else if (state === 'toppingUp' || state === 'redirect') {
    expect(topup?.getAttribute('aria-busy')).toBe('true');
    expect(text).toContain('Opening the crypto payment page…');
  } else expect(topup).toBeNull();
}

describe('buy-listing paths through the dialog', () => {
  for (const path of coveringPaths(buyListingModel)) {
    it(path.description, () =>
      runPath(buyListingModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => <BuyListingDialog actor={actor as never} onDone={() => {}} />),
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
