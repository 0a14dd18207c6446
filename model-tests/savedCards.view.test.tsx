import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import type { BillingFormValues } from '#domain/billing';
import { connectSavedCards } from '../machines/savedCards';
import { PaymentSettingsView } from '../src/views/settings/PaymentSettings';
import { flushCoverage } from './coverage-store';
import { clickFirst, typeInto } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';
import { savedCardsModel } from './savedCards.model';

const labels: Partial<Record<keyof BillingFormValues, string>> = {
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
const dialog = (name: string) => screen.queryByRole('dialog', { name });
const addDialog = () => dialog('Add a card');
const field = (label: string) =>
  within(addDialog()!).getByLabelText<HTMLInputElement | HTMLSelectElement>(label);

/** Fills what the patch changes in the add-card dialog, the country before the state. */
function fill(values: Partial<BillingFormValues>): true {
  let changed = false;
  const { country, state, save: _save, ...texts } = values;
  if (country !== undefined && field('Country').value !== country) {
    fireEvent.change(field('Country'), { target: { value: country } });
    changed = true;
  }
  if (state !== undefined && field('State').value !== state) {
    fireEvent.change(field('State'), { target: { value: state } });
    changed = true;
  }
  for (const [key, value] of Object.entries(texts) as [keyof BillingFormValues, string][]) {
    if (field(labels[key]!).value === value) continue;
    typeInto(field(labels[key]!) as HTMLInputElement, value, labels[key]);
    changed = true;
  }
  if (!changed) throw new Error('The change changes nothing on screen');
  return true;
}

function perform(step: PathStep, actor: AnyActorRef) {
  const e = step.event as { type: string; id?: string; values?: Partial<BillingFormValues> };
  const shown = connectSavedCards(actor.getSnapshot(), () => {});
  switch (e.type) {
    case 'cards.add':
      return clickFirst('Add card');
    case 'cards.change':
      return fill(e.values!);
    case 'cards.submit':
      return clickFirst('Save card');
    case 'cards.close':
      return clickFirst('Cancel');
    case 'cards.remove':
      return clickFirst(`Remove ${shown.cards.find((card) => card.id === e.id)!.label}`);
    case 'cards.remove.confirm':
      return clickFirst('Remove card');
    case 'cards.retry':
      return clickFirst('Try again');
    default:
      return false;
  }
}

/** Settings → Payment against the saved cards' view model of the expected snapshot (never its state names). */
function check(expected: AnyMachineSnapshot) {
  const view = connectSavedCards(expected as never, () => {});
  const section = screen.getByRole('region', { name: 'Saved cards' });
  expect(section.getAttribute('aria-busy')).toBe(view.busy ? 'true' : null);
  const pageAlerts = () =>
    within(section)
      .queryAllByRole('alert')
      .map((a) => a.textContent);

  if (view.panel === 'loadFailed') {
    expect(pageAlerts()).toEqual([`Your cards could not be loaded.${view.error}Try again`]);
    expect(screen.queryByRole('button', { name: 'Add card' })).toBeNull();
    return;
  }
  if (view.panel === 'loading') {
    expect(within(section).getByRole('status', { name: 'Loading your cards' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add card' })).toBeNull();
    return;
  }
  const rows = within(section).queryAllByTestId('saved-card');
  expect(rows.map((r) => r.textContent)).toEqual(
    view.cards.map((card) => `${card.label} · ${card.expiry}Remove`),
  );
  expect(view.cards.every((card) => /^Expires \d{2}\/\d{4}$/.test(card.expiry ?? ''))).toBe(true);
  if (view.cards.length === 0) expect(section.textContent).toContain('No saved cards yet.');
  const add = within(section).getByRole<HTMLButtonElement>('button', { name: 'Add card' });
  expect(add.disabled).toBe(!view.canAdd);

  if (view.form) {
    const d = addDialog()!;
    expect(d).toBeTruthy();
    for (const [key, label] of Object.entries(labels) as [keyof BillingFormValues, string][])
      expect(field(label).value, label).toBe(view.form.values[key]);
    expect(within(d).queryByRole('checkbox', { name: 'Save this card for later purchases' })).toBeNull();
    const alerts = within(d)
      .queryAllByRole('alert')
      .map((a) => a.textContent);
    const expectedAlerts = [...Object.values(view.form.errors), ...(view.error ? [view.error] : [])];
    expect([...alerts].sort()).toEqual([...expectedAlerts].sort());
    const save = within(d).getByRole('button', { name: 'Save card' });
    expect(save.getAttribute('aria-busy')).toBe(view.saving ? 'true' : null);
    expect(view.saving).toBe(view.busy);
    expect(field('Card number').disabled).toBe(view.busy);
  } else {
    expect(addDialog()).toBeNull();
  }

  if (view.confirmRemove) {
    const d = dialog('Remove this card?')!;
    expect(d.textContent).toContain(`${view.confirmRemove.label} will no longer be offered at checkout.`);
    expect(within(d).getByRole('button', { name: 'Remove card' }).getAttribute('aria-busy')).toBe(
      view.removing ? 'true' : null,
    );
  } else {
    expect(dialog('Remove this card?')).toBeNull();
  }

  if (!view.form && !view.confirmRemove && !view.busy)
    expect(pageAlerts()).toEqual(view.error ? [view.error] : []);
}

describe('saved-card paths through Settings → Payment', () => {
  for (const path of coveringPaths(savedCardsModel)) {
    it(path.description, () =>
      runPath(savedCardsModel, path, {
        mount: (actor: AnyActorRef) => renderWithRouter(() => <PaymentSettingsView actor={actor as never} />),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
