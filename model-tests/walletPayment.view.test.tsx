import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { errorMessage } from '#domain/errors';
import type { WalletPaymentContext } from '../machines/walletPayment';
import { WalletPanel } from '../src/views/checkout/WalletPanel';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst, typeInto } from './dom';
import { coveringPaths, type PathStep, runPath, unusedViewless, type ViewlessEvent } from './harness';
import { renderWithRouter } from './router';
import { walletPaymentModel } from './walletPayment.model';

const NAMES = { applepay: 'Apple Pay', googlepay: 'Google Pay' };
const panel = () => screen.getByRole('region', { name: /^(Apple Pay|Google Pay)( billing)?$/ });
const field = (label: string) => within(panel()).getByLabelText<HTMLInputElement | HTMLSelectElement>(label);
const textLabels: Record<string, string> = {
  addressLine1: 'Address line 1',
  city: 'City',
  zipCode: 'ZIP code',
};

/** Fills the billing form as a person does: each text field, the state from its list. */
function fill(values: Record<string, string>): true {
  for (const [key, value] of Object.entries(values)) {
    if (key === 'state') {
      fireEvent.change(field('State'), { target: { value } });
      continue;
    }
    const label = textLabels[key];
    if (!label) throw new Error(`No field for ${key}`);
    typeInto(field(label) as HTMLInputElement, value, label);
  }
  return true;
}
const acknowledgement = () =>
  within(panel()).queryByRole<HTMLInputElement>('checkbox', {
    name: /I agree to the purchase agreement and the Terms of Service/,
  });

/** The wallet's own sheet raises these (Safari's or Google's UI, or the test wallet's stand-in). */
const viewless: ViewlessEvent[] = [
  { event: 'wallet.authorized', reason: 'the buyer authorizes in the wallet’s own payment sheet' },
  { event: 'wallet.canceled', reason: 'the buyer closes the wallet’s own payment sheet' },
  { event: 'wallet.failed', reason: 'the wallet’s sheet reports its own failures (merchant validation)' },
];

function perform(step: PathStep) {
  switch (step.event.type) {
    case 'wallet.acknowledge':
      return clickControl(acknowledgement(), 'The acknowledgement');
    case 'wallet.submit':
      return clickFirst(/^Pay \$25 with (Apple|Google) Pay$/);
    case 'wallet.back':
      return clickFirst('Back');
    case 'wallet.billing.change':
      return fill((step.event as unknown as { values: Record<string, string> }).values);
    case 'wallet.billing.submit':
      return clickFirst(/^Pay \$25 with Google Pay$/);
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const c = expected.context as WalletPaymentContext;
  if (expected.status === 'done') {
    expect(screen.queryByRole('region')).toBeNull();
    return;
  }
  const region = panel();
  const busy = expected.hasTag('busy');
  if (expected.matches({ paying: 'billing' })) {
    expect(within(region).getByRole('heading').textContent).toBe(`${NAMES[c.wallet]} billing`);
    expect(acknowledgement()).toBeNull();
    for (const [key, label] of Object.entries(textLabels))
      expect(field(label).value).toBe(c.billing[key as keyof typeof c.billing]);
    expect(field('State').value).toBe(c.billing.state);
    expect(within(region).queryByLabelText('Card number')).toBeNull();
    expect(within(region).queryByLabelText('Phone number')).toBeNull();
    expect(
      within(region)
        .queryAllByRole('alert')
        .map((a) => a.textContent),
    ).toEqual(Object.values(c.billingErrors).map((e) => e!.message));
    return;
  }
  expect(within(region).getByRole('heading').textContent).toBe(NAMES[c.wallet]);
  expect(region.getAttribute('aria-busy')).toBe(busy ? 'true' : null);
  expect(region.textContent).toContain('Night Market · $25');
  expect(acknowledgement()!.checked).toBe(c.acknowledged);
  expect(acknowledgement()!.disabled).toBe(busy);
  const pay = within(region).getByRole<HTMLButtonElement>('button', {
    name: `Pay $25 with ${NAMES[c.wallet]}`,
  });
  expect(pay.disabled).toBe(busy || !expected.can({ type: 'wallet.submit' }));
  expect(within(region).getByRole<HTMLButtonElement>('button', { name: 'Back' }).disabled).toBe(
    !expected.can({ type: 'wallet.back' }),
  );
  expect(
    within(region)
      .queryAllByRole('alert')
      .map((a) => a.textContent),
  ).toEqual(c.error ? [errorMessage(c.error)] : []);
  if (expected.matches({ paying: 'sheet' }))
    expect(region.textContent).toContain(`Confirm the payment in ${NAMES[c.wallet]}…`);
}

describe('mobile wallet payment paths through the wallet panel', () => {
  const paths = coveringPaths(walletPaymentModel);
  for (const path of paths) {
    it(path.description, () =>
      runPath(walletPaymentModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <WalletPanel actor={actor as never} />),
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
