import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import type { BillingFormValues } from '#domain/billing';
import type { BillingInfoJson } from '#domain/schemas/checkout';
import { connectCardPayment } from '../machines/cardPaymentView';
import { CardPanel } from '../src/views/checkout/CardPanel';
import { cardPaymentModel, cardPaymentRestoreModel, SCENARIOS } from './cardPayment.model';
import { flushCoverage } from './coverage-store';
import { clickControl, clickFirst, typeInto } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';

/** The labels of the billing form's text fields. */
const textLabels: Partial<Record<keyof BillingFormValues, string>> = {
  cardNumber: 'Card number',
  expiryMonth: 'Expiry month',
  expiryYear: 'Expiry year',
  cvv: 'Security code (CVV)',
  firstName: 'First name',
  lastName: 'Last name (optional)',
  addressLine1: 'Address line 1',
  addressLine2: 'Address line 2 (optional)',
  city: 'City',
  zipCode: 'ZIP code',
  phone: 'Phone number',
};
const form = () => screen.getByRole('region', { name: 'Pay by card' });
const field = (label: string) => within(form()).getByLabelText<HTMLInputElement | HTMLSelectElement>(label);
const stateField = () =>
  within(form()).queryByLabelText<HTMLSelectElement>('State') ??
  within(form()).queryByLabelText<HTMLSelectElement>('Province') ??
  within(form()).getByLabelText<HTMLInputElement>('State or region');
const acknowledgement = () =>
  within(form()).queryByRole<HTMLInputElement>('checkbox', { name: /I agree to the purchase agreement/ });

/** Fills what the patch changes, field by field as a person does: the country before the state. */
function fill(values: Partial<BillingFormValues>): true {
  let changed = false;
  const { country, state, save, ...texts } = values;
  if (country !== undefined && field('Country').value !== country) {
    fireEvent.change(field('Country'), { target: { value: country } });
    changed = true;
  }
  if (state !== undefined && stateField().value !== state) {
    fireEvent.change(stateField(), { target: { value: state } });
    changed = true;
  }
  for (const [key, value] of Object.entries(texts) as [keyof BillingFormValues, string][]) {
    const label = textLabels[key];
    if (!label) throw new Error(`No field for ${key}`);
    if (field(label).value === value) continue;
    typeInto(field(label) as HTMLInputElement, value, label);
    changed = true;
  }
  if (save !== undefined) {
    const box = within(form()).getByRole<HTMLInputElement>('checkbox', {
      name: 'Save this card for later purchases',
    });
    if (box.checked !== save) {
      clickControl(box, 'The save checkbox');
      changed = true;
    }
  }
  if (!changed) throw new Error('The change changes nothing on screen');
  return true;
}

/** Card payment paths through the panel: every user event is a click or typing. */
function perform(step: PathStep, actor: AnyActorRef) {
  const e = step.event as {
    type: string;
    id?: string;
    value?: string | boolean;
    values?: Partial<BillingFormValues>;
  };
  const shown = connectCardPayment(actor.getSnapshot(), () => {});
  switch (e.type) {
    case 'card.select': {
      const { label } = shown.savedCards.find((x) => x.id === e.id)!;
      return clickControl(within(form()).getByRole('radio', { name: new RegExp(label) }), label);
    }
    case 'card.cvv':
      return typeInto(
        field('Security code (CVV)') as HTMLInputElement,
        e.value as string,
        'The security code',
      );
    case 'card.new':
      return clickFirst('Use a new card');
    case 'card.saved':
      return clickFirst('Use a saved card');
    case 'card.change':
      return fill(e.values!);
    case 'card.acknowledge':
      return clickControl(acknowledgement(), 'The acknowledgement');
    case 'card.submit':
      return clickFirst('Pay $25');
    case 'card.back':
      return clickFirst('Back');
    case 'card.retry':
      return clickFirst('Try again');
    default:
      return false;
  }
}

/** The card panel against the card rail's view model of the expected snapshot (never its state names). */
function check(expected: AnyMachineSnapshot) {
  const view = connectCardPayment(expected as never, () => {});
  if (view.panel === 'done') {
    expect(screen.queryByRole('region', { name: 'Pay by card' })).toBeNull();
    return;
  }
  const panel = form();
  expect(panel.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  expect(`${view.itemTitle} · ${view.price}`).toBe('Night Market · $25');
  expect(panel.textContent).toContain('Night Market · $25');
  const alerts = within(panel)
    .queryAllByRole('alert')
    .map((a) => a.textContent);

  if (view.panel === 'loading' || view.panel === 'restoring') {
    expect(view.status).toBe(
      view.panel === 'loading' ? 'Loading your saved cards…' : 'Checking your payment…',
    );
    expect(within(panel).getByRole('status', { name: view.status! })).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Pay $25' })).toBeNull();
    expect(alerts).toEqual([]);
    return;
  }
  if (view.panel === 'restoreFailed') {
    expect(alerts).toEqual([view.error]);
    expect(within(panel).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Pay $25' })).toBeNull();
    return;
  }

  // The form, while it is filled in and while it pays.
  expect([null, 'Checking your card…', 'Charging your card…']).toContain(view.status);
  expect(view.status !== null).toBe(view.busy);
  if (view.status) expect(panel.textContent).toContain(view.status);
  const pay = within(panel).getByRole<HTMLButtonElement>('button', { name: view.payLabel });
  expect(pay.disabled).toBe(view.busy || !view.canPay);
  expect(pay.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  expect(pay.getAttribute('data-state')).toBe(view.busy ? 'busy' : view.canPay ? 'idle' : 'disabled');
  expect(acknowledgement()!.checked).toBe(view.acknowledged);
  const expectedAlerts = [
    ...Object.values(view.form?.errors ?? {}),
    ...(view.cvv?.error ? [view.cvv.error] : []),
    ...(view.error ? [view.error] : []),
  ];
  expect([...alerts].sort()).toEqual([...expectedAlerts].sort());
  if (view.method === 'saved') {
    const radios = within(panel).getAllByRole<HTMLInputElement>('radio');
    expect(radios.map((r) => r.closest('label')!.textContent)).toEqual(
      view.savedCards.map((card) => `${card.label}${card.expiry}`),
    );
    expect(view.savedCards.every((card) => /^Expires \d{2}\/2030$/.test(card.expiry ?? ''))).toBe(true);
    expect(radios.map((r) => r.checked)).toEqual(view.savedCards.map((card) => card.selected));
    expect((field('Security code (CVV)') as HTMLInputElement).value).toBe(view.cvv?.value);
    expect(within(panel).queryByLabelText('Card number')).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Use a new card' })).toBeTruthy();
    return;
  }
  expect(within(panel).queryAllByRole('radio')).toEqual([]);
  const values = view.form!.values;
  for (const [key, label] of Object.entries(textLabels) as [keyof BillingFormValues, string][])
    expect(field(label).value, label).toBe(values[key]);
  expect(field('Country').value).toBe(values.country);
  expect(stateField().value).toBe(values.state);
  expect(
    within(panel).getByRole<HTMLInputElement>('checkbox', { name: 'Save this card for later purchases' })
      .checked,
  ).toBe(values.save);
  expect(!!within(panel).queryByRole('button', { name: 'Use a saved card' })).toBe(view.canUseSaved);
  expect(field('Card number').disabled).toBe(view.busy);
}

describe('card payment paths through the card panel', () => {
  const paths = [...coveringPaths(cardPaymentModel), ...coveringPaths(cardPaymentRestoreModel)];
  for (const path of paths) {
    it(path.description, () =>
      runPath(path.scenario.input === SCENARIOS.fresh ? cardPaymentModel : cardPaymentRestoreModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <CardPanel actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});

describe('the card panel', () => {
  it('links the terms and names every billing field for autofill', async () => {
    const { createActor, fromPromise } = await import('xstate');
    const { cardPaymentMachine } = await import('../machines/cardPayment');
    const actor = createActor(
      cardPaymentMachine.provide({
        actors: { listBillingInfo: fromPromise(async (): Promise<BillingInfoJson[]> => []) },
      }),
      { input: SCENARIOS.fresh },
    );
    await renderWithRouter(() => <CardPanel actor={actor} />);
    await act(async () => {
      actor.start();
    });
    expect(within(form()).getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe(
      '/terms',
    );
    const autocomplete = (label: string) => field(label).getAttribute('autocomplete');
    expect(autocomplete('Card number')).toBe('cc-number');
    expect(autocomplete('Expiry month')).toBe('cc-exp-month');
    expect(autocomplete('Expiry year')).toBe('cc-exp-year');
    expect(autocomplete('Security code (CVV)')).toBe('cc-csc');
    expect(autocomplete('Phone number')).toBe('tel-national');
    expect(within(form()).getByText('+1')).toBeTruthy();
    fireEvent.change(field('Country'), { target: { value: 'GB' } });
    expect(within(form()).getByText('+44')).toBeTruthy();
    expect(within(form()).getByLabelText('State or region').tagName).toBe('INPUT');
    expect(within(form()).getByLabelText('Postal code')).toBeTruthy();
    fireEvent.change(field('Country'), { target: { value: 'CA' } });
    expect(within(form()).getByLabelText('Province').tagName).toBe('SELECT');
    actor.stop();
  });
});
