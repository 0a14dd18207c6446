import type { AnyMachineSnapshot } from 'xstate';
import { emptyBillingForm } from '#domain/billing';
import { type SavedCardsContext, type SavedCardsEvent, savedCardsMachine } from '../machines/savedCards';
import {
  AMEX_FORM,
  MASTERCARD_CARD,
  NETWORK_ERROR,
  NOT_FOUND_ERROR,
  TOKEN,
  VALID_FORM,
  VISA_CARD,
} from './cardPayment.model';
import type { MachineModel } from './harness';

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
};
