import type { SnapshotFrom } from 'xstate';
import { errorMessage } from '#domain/errors';
import { formatUsd } from '#domain/money';
import type { OnrampPaymentContext, OnrampPaymentEvent, onrampPaymentMachine } from './onrampPayment';
import { type ButtonProps, buttonProps, type CheckboxProps } from './props';

/**
 * The on-ramp rail's view model (zag's `connect`): from a snapshot of the onrampPayment machine to
 * what its panel renders — the panel, texts, busy and disabled flags (from the machine's tags and
 * what it takes now), and prop getters (zag's style) that the panel spreads on its controls.
 */
export interface OnrampPaymentView {
  panel: 'review' | 'open' | 'widget' | 'processing' | 'done';
  title: string;
  busy: boolean;
  itemTitle: string;
  price: string;
  acknowledged: boolean;
  payLabel: string;
  canPay: boolean;
  canBack: boolean;
  /** The open charge found: resume it in the widget, or cancel it. */
  canResume: boolean;
  canCancel: boolean;
  status: string | null;
  error: string | null;
  receipt: string;
  /** The purchase agreement and terms checkbox (review panel). */
  getTermsProps: () => CheckboxProps;
  /** Pay, or Check again (a submit button). */
  getPayButtonProps: () => ButtonProps;
  /** Resume the open charge (its panel's submit button), or cancel it. */
  getResumeButtonProps: () => ButtonProps;
  getCancelButtonProps: () => ButtonProps;
  getBackButtonProps: () => ButtonProps;
  /** The form's submit: resume the open charge on its panel, else pay (or check again). */
  submit: () => void;
  /** Pay (or Check again) shows: on the review, and while a payment is still being confirmed. */
  showsPay: boolean;
}

/** What the panel says of the buyer's open charge: this item's, or another's. */
function openChargeText(context: OnrampPaymentContext): string {
  const charge = context.charge;
  if (!charge) return '';
  const { item } = charge.order;
  if (item.id === context.item.id)
    return `You started paying ${formatUsd(charge.amount)} for this item by card and did not finish. Resume the payment, or cancel it.`;
  return `You have an unfinished card payment of ${formatUsd(charge.amount)} for ${item.title}. Resume it, or cancel it to buy this item.`;
}

export function connectOnrampPayment(
  snapshot: SnapshotFrom<typeof onrampPaymentMachine>,
  send: (event: OnrampPaymentEvent) => void,
): OnrampPaymentView {
  const { context } = snapshot;
  const price = formatUsd(context.price);
  const processing = snapshot.matches('following') || snapshot.matches('stillProcessing');
  const open = snapshot.matches('openCharge') || snapshot.matches('cancellingOpen');
  const canPay = snapshot.can({ type: 'onramp.submit' });
  const panel: OnrampPaymentView['panel'] =
    snapshot.status === 'done'
      ? 'done'
      : open
        ? 'open'
        : snapshot.matches('widget')
          ? 'widget'
          : processing
            ? 'processing'
            : 'review';
  const busy = snapshot.hasTag('busy');
  const can = (type: 'onramp.resume' | 'onramp.cancel' | 'onramp.back') => snapshot.can({ type });
  return {
    panel,
    title: 'Card to crypto',
    busy,
    itemTitle: context.item.title,
    price,
    acknowledged: context.acknowledged,
    payLabel: snapshot.matches('stillProcessing') ? 'Check again' : `Pay ${price} by card`,
    canPay,
    canBack: can('onramp.back'),
    canResume: can('onramp.resume'),
    canCancel: can('onramp.cancel'),
    status: snapshot.matches('finding')
      ? 'Looking for a payment you started…'
      : snapshot.matches('openCharge')
        ? openChargeText(context)
        : snapshot.matches('creating')
          ? 'Opening the payment window…'
          : snapshot.matches('widget')
            ? context.paying
              ? 'Your payment is being processed…'
              : 'Complete your payment in the payment window.'
            : snapshot.matches('cancelling') || snapshot.matches('cancellingOpen')
              ? 'Canceling your payment…'
              : snapshot.matches('following')
                ? 'Confirming your payment…'
                : snapshot.matches('stillProcessing')
                  ? 'Your payment is still being confirmed. You can check again, or leave: your edition arrives once it is.'
                  : null,
    error: context.error ? errorMessage(context.error) : null,
    receipt: `The receipt goes to ${context.email}.`,
    getTermsProps: () => ({
      checked: context.acknowledged,
      disabled: busy,
      onChange: (value) => send({ type: 'onramp.acknowledge', value }),
      'data-state': context.acknowledged ? 'checked' : 'unchecked',
    }),
    getPayButtonProps: () => buttonProps({ type: 'submit', disabled: !canPay, busy }),
    getResumeButtonProps: () => buttonProps({ type: 'submit', disabled: !can('onramp.resume') }),
    getCancelButtonProps: () =>
      buttonProps({ onClick: () => send({ type: 'onramp.cancel' }), disabled: !can('onramp.cancel'), busy }),
    getBackButtonProps: () =>
      buttonProps({ onClick: () => send({ type: 'onramp.back' }), disabled: !can('onramp.back') }),
    submit: () => send({ type: open ? 'onramp.resume' : 'onramp.submit' }),
    showsPay: !open && (panel === 'review' || canPay),
  };
}
