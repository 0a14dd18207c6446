import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { type BillingFormValues, maskedCard } from '#domain/billing';
import { errorMessage } from '#domain/errors';
import type { BillingInfoJson } from '#domain/schemas/checkout';
import type { CardPaymentContext } from '../machines/cardPayment';
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
  const c = actor.getSnapshot().context as CardPaymentContext;
  switch (e.type) {
    case 'card.select': {
      const card = c.cards.find((x) => x.id === e.id)!;
      const label = maskedCard(card.scheme, card.lastFourDigits);
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

const statusTexts: Array<[object | string, string]> = [
  ['loading', 'Loading your saved cards…'],
  ['restoring', 'Checking your payment…'],
  [{ paying: 'tokenizing' }, 'Checking your card…'],
  [{ paying: 'charging' }, 'Charging your card…'],
];

function check(expected: AnyMachineSnapshot) {
  const c = expected.context as CardPaymentContext;
  if (expected.status === 'done') {
    expect(screen.queryByRole('region', { name: 'Pay by card' })).toBeNull();
    return;
  }
  const panel = form();
  const busy = expected.hasTag('busy');
  expect(panel.getAttribute('aria-busy')).toBe(busy ? 'true' : null);
  expect(panel.textContent).toContain('Night Market · $25');
  const status = statusTexts.find(([state]) => expected.matches(state as never))?.[1];
  const alerts = within(panel)
    .queryAllByRole('alert')
    .map((a) => a.textContent);

  if (expected.matches('loading') || expected.matches('restoring')) {
    expect(within(panel).getByRole('status', { name: status })).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Pay $25' })).toBeNull();
    expect(alerts).toEqual([]);
    return;
  }
  if (expected.matches('restoreFailed')) {
    expect(alerts).toEqual([errorMessage(c.error)]);
    expect(within(panel).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Pay $25' })).toBeNull();
    return;
  }

  // The form, while it is filled in and while it pays.
  if (status) expect(panel.textContent).toContain(status);
  const pay = within(panel).getByRole<HTMLButtonElement>('button', { name: 'Pay $25' });
  expect(pay.disabled).toBe(busy || !expected.can({ type: 'card.submit' }));
  expect(pay.getAttribute('aria-busy')).toBe(busy ? 'true' : null);
  expect(acknowledgement()!.checked).toBe(c.acknowledged);
  const expectedAlerts = [
    ...Object.values(c.errors).map((e) => e!.message),
    ...(c.error ? [errorMessage(c.error)] : []),
  ];
  expect([...alerts].sort()).toEqual([...expectedAlerts].sort());
  if (c.method === 'saved') {
    const radios = within(panel).getAllByRole<HTMLInputElement>('radio');
    expect(radios.map((r) => r.closest('label')!.textContent)).toEqual(
      c.cards.map(
        (card) =>
          `${maskedCard(card.scheme, card.lastFourDigits)}Expires ${String(card.expiryMonth).padStart(2, '0')}/2030`,
      ),
    );
    expect(radios.map((r) => r.checked)).toEqual(c.cards.map((card) => card.id === c.selectedId));
    expect((field('Security code (CVV)') as HTMLInputElement).value).toBe(c.cvv);
    expect(within(panel).queryByLabelText('Card number')).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Use a new card' })).toBeTruthy();
    return;
  }
  expect(within(panel).queryAllByRole('radio')).toEqual([]);
  for (const [key, label] of Object.entries(textLabels) as [keyof BillingFormValues, string][])
    expect(field(label).value, label).toBe(c.values[key]);
  expect(field('Country').value).toBe(c.values.country);
  expect(stateField().value).toBe(c.values.state);
  expect(
    within(panel).getByRole<HTMLInputElement>('checkbox', { name: 'Save this card for later purchases' })
      .checked,
  ).toBe(c.values.save);
  expect(!!within(panel).queryByRole('button', { name: 'Use a saved card' })).toBe(c.cards.length > 0);
  expect(field('Card number').disabled).toBe(busy);
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
