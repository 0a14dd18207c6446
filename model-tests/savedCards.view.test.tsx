import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { type BillingFormValues, cardExpiry, maskedCard } from '#domain/billing';
import { errorMessage } from '#domain/errors';
import type { SavedCardsContext } from '../machines/savedCards';
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
const rowLabel = (card: SavedCardsContext['cards'][number]) => maskedCard(card.scheme, card.lastFourDigits);

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
  const c = actor.getSnapshot().context as SavedCardsContext;
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
      return clickFirst(`Remove ${rowLabel(c.cards.find((card) => card.id === e.id)!)}`);
    case 'cards.remove.confirm':
      return clickFirst('Remove card');
    case 'cards.retry':
      return clickFirst('Try again');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const c = expected.context as SavedCardsContext;
  const section = screen.getByRole('region', { name: 'Saved cards' });
  const busy = expected.hasTag('busy');
  expect(section.getAttribute('aria-busy')).toBe(busy ? 'true' : null);
  const pageAlerts = () =>
    within(section)
      .queryAllByRole('alert')
      .map((a) => a.textContent);

  if (expected.matches('loadFailed')) {
    expect(pageAlerts()).toEqual([`Your cards could not be loaded.${errorMessage(c.error)}Try again`]);
    expect(screen.queryByRole('button', { name: 'Add card' })).toBeNull();
    return;
  }
  if (expected.matches('loading') && c.cards.length === 0) {
    expect(within(section).getByRole('status', { name: 'Loading your cards' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add card' })).toBeNull();
    return;
  }
  const rows = within(section).queryAllByTestId('saved-card');
  expect(rows.map((r) => r.textContent)).toEqual(
    c.cards.map((card) => `${rowLabel(card)} · ${cardExpiry(card.expiryMonth, card.expiryYear)}Remove`),
  );
  if (c.cards.length === 0) expect(section.textContent).toContain('No saved cards yet.');
  const add = within(section).getByRole<HTMLButtonElement>('button', { name: 'Add card' });
  expect(add.disabled).toBe(!expected.can({ type: 'cards.add' }));

  if (expected.matches('adding')) {
    const d = addDialog()!;
    expect(d).toBeTruthy();
    for (const [key, label] of Object.entries(labels) as [keyof BillingFormValues, string][])
      expect(field(label).value, label).toBe(c.values[key]);
    expect(within(d).queryByRole('checkbox', { name: 'Save this card for later purchases' })).toBeNull();
    const alerts = within(d)
      .queryAllByRole('alert')
      .map((a) => a.textContent);
    const expectedAlerts = [
      ...Object.values(c.errors).map((e) => e!.message),
      ...(c.error ? [errorMessage(c.error)] : []),
    ];
    expect([...alerts].sort()).toEqual([...expectedAlerts].sort());
    const save = within(d).getByRole('button', { name: 'Save card' });
    expect(save.getAttribute('aria-busy')).toBe(busy ? 'true' : null);
    expect(field('Card number').disabled).toBe(busy);
  } else {
    expect(addDialog()).toBeNull();
  }

  if (expected.matches('confirmingRemove') || expected.matches('removing')) {
    const d = dialog('Remove this card?')!;
    const card = c.cards.find((x) => x.id === c.removeId)!;
    expect(d.textContent).toContain(`${rowLabel(card)} will no longer be offered at checkout.`);
    expect(within(d).getByRole('button', { name: 'Remove card' }).getAttribute('aria-busy')).toBe(
      expected.matches('removing') ? 'true' : null,
    );
  } else {
    expect(dialog('Remove this card?')).toBeNull();
  }

  if (expected.matches('ready')) expect(pageAlerts()).toEqual(c.error ? [errorMessage(c.error)] : []);
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
