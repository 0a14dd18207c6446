import type { SnapshotFrom } from 'xstate';
import { errorMessage } from '#domain/errors';
import { formatUsd } from '#domain/money';
import { topupAmount } from '#domain/schemas/crypto';
import type { BalancePaymentEvent, balancePaymentMachine } from './balancePayment';
import { returnedTopupMessage, topupWaitingStatus } from './cryptoTopup';
import { type ButtonProps, buttonProps, type CheckboxProps } from './props';

/**
 * The balance rail's view model (zag's `connect`): from a snapshot of the balancePayment machine to
 * what its panel renders — the panel, the balance and whether it falls short of the price, texts,
 * busy and disabled flags, and the functions that send events.
 */
export interface BalancePaymentView {
  /** review: pay from the balance; short: the crypto top-up panel; failed: reading or reporting failed. */
  panel: 'loading' | 'review' | 'short' | 'failed' | 'done';
  title: string;
  busy: boolean;
  itemTitle: string;
  price: string;
  /** "$12.50", once read. */
  balance: string | null;
  /** "Insufficient funds" when the balance is below the price. */
  insufficient: string | null;
  /** The short panel's offer: "Add $12.50 with crypto", or null when no top-up can be offered. */
  topupLabel: string | null;
  canTopUp: boolean;
  acknowledged: boolean;
  payLabel: string;
  canPay: boolean;
  canBack: boolean;
  canRetry: boolean;
  /** The retry button's label: check the balance again, or report the payment again. */
  retryLabel: string;
  status: string | null;
  /** Back from a top-up: how it went ("Added $13 to your balance."), once it is no longer awaited. */
  topupNote: string | null;
  error: string | null;
  /** The form's submit: the top-up on the short panel, else Pay. */
  submit: () => void;
  /** The purchase agreement and terms checkbox (review panel). */
  getTermsProps: () => CheckboxProps;
  /** Pay (the review panel's submit button). */
  getPayButtonProps: () => ButtonProps;
  /** The top-up (the short panel's submit button). */
  getTopupButtonProps: () => ButtonProps;
  /** Check the balance, or report the payment, again. */
  getRetryButtonProps: () => ButtonProps;
  getBackButtonProps: () => ButtonProps;
}

export function connectBalancePayment(
  snapshot: SnapshotFrom<typeof balancePaymentMachine>,
  send: (event: BalancePaymentEvent) => void,
): BalancePaymentView {
  const { context } = snapshot;
  const price = formatUsd(context.price);
  const short = snapshot.matches('short') || snapshot.matches('toppingUp');
  const failed = snapshot.matches('readFailed') || snapshot.matches('reportFailed');
  const panel: BalancePaymentView['panel'] =
    snapshot.status === 'done'
      ? 'done'
      : snapshot.matches('reading') || snapshot.matches('awaitingTopup')
        ? 'loading'
        : short
          ? 'short'
          : failed
            ? 'failed'
            : 'review';
  const topup = topupAmount(context.price, context.balance ?? 0);
  const busy = snapshot.hasTag('busy');
  const can = (type: 'balance.topup' | 'balance.submit' | 'balance.back' | 'balance.retry') =>
    snapshot.can({ type });
  const awaiting = snapshot.matches('awaitingTopup');
  const status = awaiting
    ? topupWaitingStatus(context.topup)
    : snapshot.matches('reading')
      ? 'Reading your balance…'
      : snapshot.matches('toppingUp')
        ? 'Opening the payment page…'
        : snapshot.matches('reserving')
          ? 'Reserving your edition…'
          : snapshot.matches('signing')
            ? 'Approve the payment in your wallet; it takes a few seconds.'
            : snapshot.matches('reporting') || snapshot.matches('reportWaiting')
              ? 'Confirming your payment…'
              : null;
  return {
    panel,
    title: short ? 'Add funds with crypto' : 'Pay with your balance',
    busy,
    itemTitle: context.item.title,
    price,
    balance: context.balance === null ? null : formatUsd(context.balance),
    insufficient: context.balance !== null && context.balance < context.price ? 'Insufficient funds' : null,
    topupLabel: context.canTopUp ? `Add ${formatUsd(topup)} with crypto` : null,
    canTopUp: can('balance.topup'),
    acknowledged: context.acknowledged,
    payLabel: `Pay ${price} from balance`,
    canPay: can('balance.submit'),
    canBack: can('balance.back'),
    canRetry: can('balance.retry'),
    retryLabel: snapshot.matches('reportFailed') ? 'Confirm payment again' : 'Check balance again',
    status,
    topupNote: context.returnedTopup && !awaiting ? returnedTopupMessage(context.topup) : null,
    error: context.error ? errorMessage(context.error) : null,
    submit: () => send({ type: short ? 'balance.topup' : 'balance.submit' }),
    getTermsProps: () => ({
      checked: context.acknowledged,
      disabled: busy,
      onChange: (value) => send({ type: 'balance.acknowledge', value }),
      'data-state': context.acknowledged ? 'checked' : 'unchecked',
    }),
    getPayButtonProps: () => buttonProps({ type: 'submit', disabled: !can('balance.submit'), busy }),
    getTopupButtonProps: () => buttonProps({ type: 'submit', disabled: !can('balance.topup'), busy }),
    getRetryButtonProps: () =>
      buttonProps({ onClick: () => send({ type: 'balance.retry' }), disabled: !can('balance.retry') }),
    getBackButtonProps: () =>
      buttonProps({ onClick: () => send({ type: 'balance.back' }), disabled: !can('balance.back') }),
  };
}
