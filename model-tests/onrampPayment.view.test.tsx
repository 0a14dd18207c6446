import { act, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '#domain/errors';
import type { OnrampPaymentContext } from '../machines/onrampPayment';
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

function check(expected: AnyMachineSnapshot) {
  const c = expected.context as OnrampPaymentContext;
  if (expected.status === 'done') {
    expect(screen.queryByRole('region')).toBeNull();
    return;
  }
  const region = panel();
  const busy = expected.hasTag('busy');
  expect(region.getAttribute('aria-busy')).toBe(busy ? 'true' : null);
  expect(region.textContent).toContain('Night Market · $25');
  expect(
    within(region)
      .queryAllByRole('alert')
      .map((a) => a.textContent),
  ).toEqual(c.error ? [errorMessage(c.error)] : []);
  // The buyer's open charge: offered to resume or cancel, named by its item.
  const open = expected.matches('openCharge') || expected.matches('cancellingOpen');
  const resume = within(region).queryByRole<HTMLButtonElement>('button', { name: 'Resume payment' });
  const cancel = within(region).queryByRole<HTMLButtonElement>('button', { name: 'Cancel payment' });
  if (open) {
    expect(resume!.disabled).toBe(!expected.can({ type: 'onramp.resume' }));
    expect(cancel!.disabled).toBe(busy || !expected.can({ type: 'onramp.cancel' }));
    if (expected.matches('openCharge'))
      expect(region.textContent).toContain(
        c.charge!.order.item.id === c.item.id
          ? 'You started paying $25 for this item by card and did not finish.'
          : 'You have an unfinished card payment of $25 for Harbor Lights.',
      );
    else expect(region.textContent).toContain('Canceling your payment…');
  } else {
    expect(resume).toBeNull();
    expect(cancel).toBeNull();
  }
  if (expected.matches('finding')) expect(region.textContent).toContain('Looking for a payment you started…');
  // The panel's review shows while nothing is open: also while the charge is created or canceled.
  const review =
    !open &&
    !expected.matches('widget') &&
    !expected.matches('following') &&
    !expected.matches('stillProcessing');
  if (review) expect(acknowledgement()!.checked).toBe(c.acknowledged);
  else expect(acknowledgement()).toBeNull();
  const pay = within(region).queryByRole<HTMLButtonElement>('button', {
    name: /^(Pay \$25 by card|Check again)$/,
  });
  if (review || expected.matches('stillProcessing'))
    expect(pay!.disabled).toBe(busy || !expected.can({ type: 'onramp.submit' }));
  else expect(pay).toBeNull();
  expect(within(region).getByRole<HTMLButtonElement>('button', { name: 'Back' }).disabled).toBe(
    !expected.can({ type: 'onramp.back' }),
  );
  if (expected.matches('widget'))
    expect(region.textContent).toContain(
      c.paying ? 'Your payment is being processed…' : 'Complete your payment in the payment window.',
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
