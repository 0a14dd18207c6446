import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectWalletPayment } from '../machines/walletPaymentView';
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

/** The wallet panel against the rail's view model of the expected snapshot (never its state names). */
function check(expected: AnyMachineSnapshot) {
  const view = connectWalletPayment(expected as never, () => {});
  if (view.panel === 'done') {
    expect(screen.queryByRole('region')).toBeNull();
    return;
  }
  const region = panel();
  const name = NAMES[view.wallet];
  if (view.panel === 'billing') {
    expect(view.title).toBe(`${name} billing`);
    expect(within(region).getByRole('heading').textContent).toBe(view.title);
    expect(acknowledgement()).toBeNull();
    for (const [key, label] of Object.entries(textLabels))
      expect(field(label).value).toBe(view.billing.values[key as keyof typeof view.billing.values]);
    expect(field('State').value).toBe(view.billing.values.state);
    expect(within(region).queryByLabelText('Card number')).toBeNull();
    expect(within(region).queryByLabelText('Phone number')).toBeNull();
    expect(
      within(region)
        .queryAllByRole('alert')
        .map((a) => a.textContent),
    ).toEqual(Object.values(view.billing.errors));
    return;
  }
  expect(view.title).toBe(name);
  expect(within(region).getByRole('heading').textContent).toBe(name);
  expect(region.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  expect(region.textContent).toContain('Night Market · $25');
  expect(acknowledgement()!.checked).toBe(view.acknowledged);
  expect(acknowledgement()!.disabled).toBe(view.busy);
  expect(view.payLabel).toBe(`Pay $25 with ${name}`);
  const pay = within(region).getByRole<HTMLButtonElement>('button', { name: view.payLabel });
  expect(pay.disabled).toBe(view.busy || !view.canPay);
  expect(pay.getAttribute('data-state')).toBe(view.busy ? 'busy' : view.canPay ? 'idle' : 'disabled');
  expect(within(region).getByRole<HTMLButtonElement>('button', { name: 'Back' }).disabled).toBe(
    !view.canBack,
  );
  expect(
    within(region)
      .queryAllByRole('alert')
      .map((a) => a.textContent),
  ).toEqual(view.error ? [view.error] : []);
  if (view.status) expect(region.textContent).toContain(view.status);
  expect([null, `Confirm the payment in ${name}…`, 'Processing your payment…']).toContain(view.status);
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
