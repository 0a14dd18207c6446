import { act, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectOnrampPayment } from '../machines/onrampPaymentView';
import { OnrampPanel } from '../src/views/checkout/OnrampPanel';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath, unusedViewless, type ViewlessEvent } from './harness';
import { onrampPaymentModel } from './onrampPayment.model';
import { renderWithRouter } from './router';

const panel = () => screen.getByRole('region', { name: 'Card to crypto' });
const acknowledgement = () =>
  within(panel()).queryByRole<HTMLInputElement>('checkbox', {
    name: /I agree to the purchase agreement and the Terms of Service/,
  });

/** The provider's widget raises these in its own window (its iframe), not in our panel. */
const viewless: ViewlessEvent[] = [
  {
    event: 'onramp.widget.status',
    reason: 'the payment statuses come from the provider’s widget (its own window over the page)',
  },
  { event: 'onramp.widget.close', reason: 'the buyer closes the provider’s widget in its own window' },
];

function perform(step: PathStep) {
  switch (step.event.type) {
    case 'onramp.acknowledge':
      return clickControl(acknowledgement(), 'The acknowledgement');
    case 'onramp.submit':
      return clickFirst('Pay $25 by card', 'Check again');
    case 'onramp.back':
      return clickFirst('Back');
    case 'onramp.resume':
      return clickFirst('Resume payment');
    case 'onramp.cancel':
      return clickFirst('Cancel payment');
    default:
      return false;
  }
}

/** The on-ramp panel against the rail's view model of the expected snapshot (never its state names). */
function check(expected: AnyMachineSnapshot) {
  const view = connectOnrampPayment(expected as never, () => {});
  if (view.panel === 'done') {
    expect(screen.queryByRole('region')).toBeNull();
    return;
  }
  const region = panel();
  expect(region.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  expect(region.textContent).toContain('Night Market · $25');
  expect(
    within(region)
      .queryAllByRole('alert')
      .map((a) => a.textContent),
  ).toEqual(view.error ? [view.error] : []);
  if (view.status) expect(region.textContent).toContain(view.status);
  // The buyer's open charge: offered to resume or cancel, named by its item.
  const resume = within(region).queryByRole<HTMLButtonElement>('button', { name: 'Resume payment' });
  const cancel = within(region).queryByRole<HTMLButtonElement>('button', { name: 'Cancel payment' });
  if (view.panel === 'open') {
    expect(resume!.disabled).toBe(!view.canResume);
    expect(cancel!.disabled).toBe(view.busy || !view.canCancel);
    expect(cancel!.getAttribute('data-state')).toBe(
      view.busy ? 'busy' : view.canCancel ? 'idle' : 'disabled',
    );
    expect(resume!.type).toBe('submit');
    expect(view.status).toMatch(
      view.busy
        ? /^Canceling your payment…$/
        : /^(You started paying \$25 for this item by card and did not finish\.|You have an unfinished card payment of \$25 for Harbor Lights\.) /,
    );
  } else {
    expect(resume).toBeNull();
    expect(cancel).toBeNull();
  }
  // The panel's review shows while nothing is open: also while the charge is created or canceled.
  if (view.panel === 'review') expect(acknowledgement()!.checked).toBe(view.acknowledged);
  else expect(acknowledgement()).toBeNull();
  const pay = within(region).queryByRole<HTMLButtonElement>('button', {
    name: /^(Pay \$25 by card|Check again)$/,
  });
  if (view.panel === 'review' || view.payLabel === 'Check again') {
    expect(pay!.textContent).toBe(view.payLabel);
    expect(pay!.disabled).toBe(view.busy || !view.canPay);
    expect(pay!.getAttribute('data-state')).toBe(view.busy ? 'busy' : view.canPay ? 'idle' : 'disabled');
  } else expect(pay).toBeNull();
  expect(within(region).getByRole<HTMLButtonElement>('button', { name: 'Back' }).disabled).toBe(
    !view.canBack,
  );
  if (view.panel === 'widget')
    expect(['Your payment is being processed…', 'Complete your payment in the payment window.']).toContain(
      view.status,
    );
}

describe('on-ramp payment paths through the on-ramp panel', () => {
  const paths = coveringPaths(onrampPaymentModel);
  for (const path of paths) {
    it(path.description, () =>
      runPath(onrampPaymentModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <OnrampPanel actor={actor as never} />),
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
