import type { SnapshotFrom } from 'xstate';
import {
  type BillingFormValues,
  type BillingFormView,
  billingFormView,
  cardExpiry,
  maskedCard,
} from '#domain/billing';
import { errorMessage } from '#domain/errors';
import { formatUsd } from '#domain/money';
import type { CardPaymentEvent, cardPaymentMachine } from './cardPayment';
import { selectedCard } from './cardPayment/charge';
import { type ButtonProps, buttonProps, type CheckboxProps, type FormProps } from './props';

/**
 * The card rail's view model (zag's `connect`): from a snapshot of the cardPayment machine to what
 * the card panel renders — its panel, the saved cards or the new-card form, texts, busy and
 * disabled flags (from the machine's tags and what it takes now), the functions that send what the
 * buyer types, and prop getters (zag's style) that the panel spreads on its form and controls.
 */

/** A saved card as the choice lists it. */
export interface SavedCardOption {
  id: string;
  /** "Visa •••• 4242". */
  label: string;
  /** "Expires 04/2030". */
  expiry: string | null;
  selected: boolean;
}
export interface CardPaymentView {
  panel: 'loading' | 'restoring' | 'restoreFailed' | 'form' | 'done';
  busy: boolean;
  /** "Night Market". */
  itemTitle: string;
  /** "$25". */
  price: string;
  /** "Pay $25". */
  payLabel: string;
  canPay: boolean;
  canBack: boolean;
  canRetry: boolean;
  /** What runs now, for a status line. */
  status: string | null;
  /** Pay with a saved card (the list) or a new one (the billing form). */
  method: 'saved' | 'new';
  savedCards: SavedCardOption[];
  /** "Use a saved card" from the new-card form. */
  canUseSaved: boolean;
  /** The security code of the chosen saved card; null without one. */
  cvv: { value: string; error: string | null } | null;
  form: BillingFormView | null;
  acknowledged: boolean;
  /** Why the payment (or the saved cards) did not go through. */
  error: string | null;
  receipt: string;
  setCvv: (value: string) => void;
  change: (values: Partial<BillingFormValues>) => void;
  /** The form: its submit pays. */
  getFormProps: () => FormProps;
  /** A saved card's radio: choosing it selects the card. */
  getSavedCardProps: (card: SavedCardOption) => CheckboxProps;
  /** "Use a new card" (saved cards) and "Use a saved card" (the new-card form). */
  getNewCardButtonProps: () => ButtonProps;
  getSavedCardButtonProps: () => ButtonProps;
  /** The purchase agreement and terms checkbox. */
  getTermsProps: () => CheckboxProps;
  /** Pay (the form's submit button). */
  getPayButtonProps: () => ButtonProps;
  getBackButtonProps: () => ButtonProps;
  /** Check the interrupted payment again. */
  getRetryButtonProps: () => ButtonProps;
}

function statusText(snapshot: SnapshotFrom<typeof cardPaymentMachine>): string | null {
  if (snapshot.matches('loading')) return 'Loading your saved cards…';
  if (snapshot.matches('restoring')) return 'Checking your payment…';
  if (snapshot.matches({ paying: 'tokenizing' })) return 'Checking your card…';
  if (snapshot.matches({ paying: 'charging' })) return 'Charging your card…';
  return null;
}

function panelOf(snapshot: SnapshotFrom<typeof cardPaymentMachine>): CardPaymentView['panel'] {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('loading') || snapshot.matches('starting')) return 'loading';
  if (snapshot.matches('restoring')) return 'restoring';
  if (snapshot.matches('restoreFailed')) return 'restoreFailed';
  return 'form';
}

export function connectCardPayment(
  snapshot: SnapshotFrom<typeof cardPaymentMachine>,
  send: (event: CardPaymentEvent) => void,
): CardPaymentView {
  const { context } = snapshot;
  const price = formatUsd(context.price);
  const selected = context.method === 'saved' ? selectedCard(context) : undefined;
  const busy = snapshot.hasTag('busy');
  /** A button that sends `event`, enabled when the machine takes it (never while busy). */
  const button = (event: CardPaymentEvent) =>
    buttonProps({ onClick: () => send(event), disabled: busy || !snapshot.can(event) });
  return {
    panel: panelOf(snapshot),
    busy,
    itemTitle: context.item.title,
    price,
    payLabel: `Pay ${price}`,
    canPay: snapshot.can({ type: 'card.submit' }),
    canBack: snapshot.can({ type: 'card.back' }),
    canRetry: snapshot.can({ type: 'card.retry' }),
    status: statusText(snapshot),
    method: context.method,
    savedCards: context.cards.map((c) => ({
      id: c.id,
      label: maskedCard(c.scheme, c.lastFourDigits),
      expiry: cardExpiry(c.expiryMonth, c.expiryYear),
      selected: c.id === context.selectedId,
    })),
    canUseSaved: snapshot.can({ type: 'card.saved' }),
    cvv: selected ? { value: context.cvv, error: context.errors.cvv?.message ?? null } : null,
    form: context.method === 'new' ? billingFormView(context.values, context.errors) : null,
    acknowledged: context.acknowledged,
    error: context.error ? errorMessage(context.error) : null,
    receipt: `The receipt goes to ${context.email}.`,
    setCvv: (value) => send({ type: 'card.cvv', value }),
    change: (values) => send({ type: 'card.change', values }),
    getFormProps: () => ({
      noValidate: true,
      onSubmit: (event) => {
        event.preventDefault();
        send({ type: 'card.submit' });
      },
    }),
    getSavedCardProps: (card) => ({
      checked: card.selected,
      disabled: busy,
      onChange: () => send({ type: 'card.select', id: card.id }),
      'data-state': card.selected ? 'checked' : 'unchecked',
    }),
    getNewCardButtonProps: () => button({ type: 'card.new' }),
    getSavedCardButtonProps: () => button({ type: 'card.saved' }),
    getTermsProps: () => ({
      checked: context.acknowledged,
      disabled: busy,
      onChange: (value) => send({ type: 'card.acknowledge', value }),
      'data-state': context.acknowledged ? 'checked' : 'unchecked',
    }),
    getPayButtonProps: () =>
      buttonProps({ type: 'submit', disabled: !snapshot.can({ type: 'card.submit' }), busy }),
    getBackButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'card.back' }),
        disabled: !snapshot.can({ type: 'card.back' }),
      }),
    getRetryButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'card.retry' }),
        disabled: !snapshot.can({ type: 'card.retry' }),
      }),
  };
}
