import type { SnapshotFrom } from 'xstate';
import { type BillingFormValues, type BillingFormView, billingFormView } from '#domain/billing';
import { errorMessage } from '#domain/errors';
import { formatUsd } from '#domain/money';
import { type ButtonProps, buttonProps, type CheckboxProps } from './props';
import type { MobileWallet, WalletPaymentEvent, walletPaymentMachine } from './walletPayment';

const NAMES: Record<MobileWallet, string> = { applepay: 'Apple Pay', googlepay: 'Google Pay' };

/**
 * The mobile wallet rail's view model (zag's `connect`): from a snapshot of the walletPayment
 * machine to what its panel renders — the panel, texts, the billing form when the wallet shared too
 * little, busy and disabled flags, and prop getters (zag's style) that the panel spreads.
 */
export interface WalletPaymentView {
  /** review: the "mobile wallet pay" panel; billing: the "Google Pay billing" panel. */
  panel: 'review' | 'billing' | 'done';
  /** "Apple Pay", "Google Pay". */
  title: string;
  wallet: MobileWallet;
  busy: boolean;
  itemTitle: string;
  price: string;
  acknowledged: boolean;
  /** "Pay $25 with Apple Pay". */
  payLabel: string;
  canPay: boolean;
  canBack: boolean;
  status: string | null;
  error: string | null;
  receipt: string;
  /** The billing panel's text, form and Continue. */
  billingText: string;
  billing: BillingFormView;
  canContinue: boolean;
  changeBilling: (values: Partial<BillingFormValues>) => void;
  /** The form's submit: Continue on the billing panel, else Pay. */
  submit: () => void;
  /** The purchase agreement and terms checkbox (review panel). */
  getTermsProps: () => CheckboxProps;
  /** Pay, or the billing panel's Continue (the form's submit button). */
  getPayButtonProps: () => ButtonProps;
  getBackButtonProps: () => ButtonProps;
}

export function connectWalletPayment(
  snapshot: SnapshotFrom<typeof walletPaymentMachine>,
  send: (event: WalletPaymentEvent) => void,
): WalletPaymentView {
  const { context } = snapshot;
  const name = NAMES[context.wallet];
  const price = formatUsd(context.price);
  const billing = snapshot.matches({ paying: 'billing' });
  const busy = snapshot.hasTag('busy');
  const submit = billing ? 'wallet.billing.submit' : 'wallet.submit';
  return {
    panel: snapshot.status === 'done' ? 'done' : billing ? 'billing' : 'review',
    title: billing ? `${name} billing` : name,
    wallet: context.wallet,
    busy,
    itemTitle: context.item.title,
    price,
    acknowledged: context.acknowledged,
    payLabel: `Pay ${price} with ${name}`,
    canPay: snapshot.can({ type: 'wallet.submit' }),
    canBack: snapshot.can({ type: 'wallet.back' }),
    status: snapshot.matches({ paying: 'sheet' })
      ? `Confirm the payment in ${name}…`
      : snapshot.hasTag('busy')
        ? 'Processing your payment…'
        : null,
    error: context.error ? errorMessage(context.error) : null,
    receipt: `The receipt goes to ${context.email}.`,
    billingText: `${name} did not share your whole billing address. Complete it to pay ${price}.`,
    billing: billingFormView(context.billing, context.billingErrors),
    canContinue: snapshot.can({ type: 'wallet.billing.submit' }),
    changeBilling: (values) => send({ type: 'wallet.billing.change', values }),
    submit: () => send({ type: submit }),
    getTermsProps: () => ({
      checked: context.acknowledged,
      disabled: busy,
      onChange: (value) => send({ type: 'wallet.acknowledge', value }),
      'data-state': context.acknowledged ? 'checked' : 'unchecked',
    }),
    getPayButtonProps: () => buttonProps({ type: 'submit', disabled: !snapshot.can({ type: submit }), busy }),
    getBackButtonProps: () =>
      buttonProps({
        onClick: () => send({ type: 'wallet.back' }),
        disabled: !snapshot.can({ type: 'wallet.back' }),
      }),
  };
}
