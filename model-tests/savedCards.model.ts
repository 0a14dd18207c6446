import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { billingDetails, cardDetails, emptyBillingForm } from '#domain/billing';
import type { BillingInfoJson } from '#domain/schemas/checkout';
import {
  connectSavedCards,
  type SavedCardsContext,
  type SavedCardsEvent,
  savedCardsMachine,
} from '../machines/savedCards';
import {
  AMEX_FORM,
  MASTERCARD_CARD,
  NETWORK_ERROR,
  NOT_FOUND_ERROR,
  TOKEN,
  VALID_FORM,
  VISA_CARD,
} from './cardPayment.model';
import { after, eventsOf, expectWorking } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof savedCardsMachine>;
const view = (o: O) => connectSavedCards(o.snapshot, () => {});
/** The cards as the server listed them last. */
const lastList = (o: O) =>
  eventsOf(o, 'xstate.done.actor.listBillingInfo').at(-1)?.output as BillingInfoJson[];

export const DUPLICATE_ERROR = {
  status: 400,
  body: { code: 'CARD_DUPLICATE', message: 'A card with the same last four digits is already saved.' },
};
export const TOKEN_TYPE_ERROR = {
  status: 400,
  body: { code: 'CARD_TYPE', field: 'cardNumber', message: 'This card type is not supported.' },
};

const formName = (values: SavedCardsContext['values']) =>
  JSON.stringify(values) === JSON.stringify(emptyBillingForm)
    ? 'empty'
    : JSON.stringify(values) === JSON.stringify(VALID_FORM)
      ? 'valid'
      : JSON.stringify(values) === JSON.stringify(AMEX_FORM)
        ? 'amex'
        : JSON.stringify(values);

/**
 * The form is explored as: Save on the empty form (errors), then filled with a valid card, or with
 * an American Express card (refused by the rules) from the valid one. Only changes are offered.
 */
function formEvents(c: SavedCardsContext): SavedCardsEvent[] {
  const form = formName(c.values);
  if (form === 'empty' || form === 'amex') return [{ type: 'cards.change', values: VALID_FORM }];
  if (form === 'valid') return [{ type: 'cards.change', values: { cardNumber: AMEX_FORM.cardNumber } }];
  return [];
}

export function serializeSavedCards(s: AnyMachineSnapshot) {
  const c = s.context as SavedCardsContext;
  return JSON.stringify([
    s.value,
    c.cards.map((card) => card.lastFourDigits),
    formName(c.values),
    Object.keys(c.errors).sort(),
    c.removeId?.slice(0, 4) ?? null,
    c.token,
    c.error?.code ?? null,
  ]);
}

export const savedCardsModel: MachineModel<typeof savedCardsMachine> = {
  machine: savedCardsMachine,
  fakes: ['listBillingInfo', 'tokenizeCard', 'saveBillingInfo', 'deleteBillingInfo'],
  scenarios: [{ name: 'a collector on Settings → Payment' }],
  events: (s) => {
    const c = s.context as SavedCardsContext;
    return [
      { type: 'xstate.done.actor.listBillingInfo', output: [VISA_CARD, MASTERCARD_CARD] },
      { type: 'xstate.done.actor.listBillingInfo', output: [] },
      { type: 'xstate.error.actor.listBillingInfo', error: NETWORK_ERROR },
      { type: 'cards.retry' },
      { type: 'cards.add' },
      ...formEvents(c),
      { type: 'cards.submit' },
      { type: 'cards.close' },
      { type: 'cards.remove', id: VISA_CARD.id },
      { type: 'cards.remove.confirm' },
      { type: 'xstate.done.actor.tokenizeCard', output: { token: TOKEN, scheme: 'VISA', last4: '4242' } },
      { type: 'xstate.error.actor.tokenizeCard', error: TOKEN_TYPE_ERROR },
      { type: 'xstate.done.actor.saveBillingInfo', output: VISA_CARD },
      { type: 'xstate.error.actor.saveBillingInfo', error: DUPLICATE_ERROR },
      { type: 'xstate.done.actor.deleteBillingInfo', output: undefined },
      { type: 'xstate.error.actor.deleteBillingInfo', error: NOT_FOUND_ERROR },
    ];
  },
  serializeState: serializeSavedCards,
  expect: {
    '#busy': (o) => expect(view(o).busy).toBe(true),
    // The list is read on opening, after a card is added and after one is removed.
    loading: (o) => {
      expect([
        'xstate.init',
        'cards.retry',
        'xstate.done.actor.saveBillingInfo',
        'xstate.done.actor.deleteBillingInfo',
      ]).toContain(o.event.type);
      expectWorking(o, 'listBillingInfo');
    },
    loadFailed: (o) => {
      expect(view(o)).toMatchObject({ panel: 'loadFailed', busy: false });
      expect(view(o).error).toBeTruthy();
    },
    // The saved cards, masked to the last four digits.
    ready: (o) => {
      const v = view(o);
      expect(v).toMatchObject({
        panel: 'list',
        form: null,
        confirmRemove: null,
        removing: false,
        canAdd: true,
      });
      expect(v.cards.map((c) => c.id)).toEqual(lastList(o).map((c) => c.id));
      for (const [i, card] of lastList(o).entries()) expect(v.cards[i]!.label).toContain(card.lastFourDigits);
      if (after(o, 'error', 'deleteBillingInfo')) expect(v.error).toBeTruthy();
      else expect(v.error).toBeNull();
    },
    'adding.editing': (o) => {
      const v = view(o);
      expect(v.form).not.toBeNull();
      expect(v.saving).toBe(false);
      if (o.event.type === 'cards.add') expect(o.snapshot.context.values).toEqual(emptyBillingForm);
      // Save on an incomplete form names its fields and sends nothing.
      if (o.event.type === 'cards.submit')
        expect(Object.keys(o.snapshot.context.errors).length).toBeGreaterThan(0);
      if (after(o, 'error', 'tokenizeCard') || after(o, 'error', 'saveBillingInfo')) {
        expect(o.snapshot.context.values).toEqual(VALID_FORM);
        expect(v.error ?? Object.values(o.snapshot.context.errors).length).toBeTruthy();
      }
    },
    // The card goes to the provider first; only its token reaches the server.
    'adding.tokenizing': (o) => {
      expect(o.event.type).toBe('cards.submit');
      expectWorking(o, 'tokenizeCard', {
        card: cardDetails(VALID_FORM),
        billing: billingDetails(VALID_FORM),
      });
      expect(view(o).saving).toBe(true);
    },
    'adding.saving': (o) => {
      expect(o.event.type).toBe('xstate.done.actor.tokenizeCard');
      expectWorking(o, 'saveBillingInfo', { cardToken: TOKEN, ...billingDetails(VALID_FORM) });
      expect(view(o).saving).toBe(true);
    },
    confirmingRemove: (o) => {
      expect(o.event).toEqual({ type: 'cards.remove', id: VISA_CARD.id });
      expect(view(o).confirmRemove?.id).toBe(VISA_CARD.id);
      expect(view(o).removing).toBe(false);
    },
    removing: (o) => {
      expect(o.event.type).toBe('cards.remove.confirm');
      expectWorking(o, 'deleteBillingInfo', { id: VISA_CARD.id });
      expect(view(o)).toMatchObject({ removing: true, confirmRemove: { id: VISA_CARD.id } });
    },
  },
};
