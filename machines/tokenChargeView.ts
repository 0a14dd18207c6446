import type { SnapshotFrom } from 'xstate';
import { ErrorCode, errorMessage } from '#domain/errors';
import { formatUsd } from '#domain/money';
import { type ButtonProps, buttonProps, type CheckboxProps } from './props';
import type { TokenChargeEvent, tokenChargeMachine } from './tokenCharge';
import { chargeItem, formatNfm, sameItem } from './tokenCharge/charge';

/**
 * The token charge's view model (zag's `connect`): from a snapshot of the machine to what the
 * "utility-token payment" panel renders — its panel, texts, busy flag, which actions the machine
 * takes now, and prop getters (zag's style) that the panel spreads on its controls.
 */
export interface TokenChargeView {
  panel: 'noWallet' | 'review' | 'network' | 'lowFunds' | 'blocked' | 'paying' | 'rejected' | 'done';
  title: string;
  busy: boolean;
  itemTitle: string;
  price: string;
  /** "≈ 250.00 NFM". */
  estimate: string | null;
  acknowledged: boolean;
  payLabel: string;
  /** "pending payment", "received payment", or what runs now. */
  status: string | null;
  error: string | null;
  /** Shown once the transfer was sent: it can no longer be canceled. */
  nonCancelable: string | null;
  /** The other payment of the address that waits (blocked panel): its amount and item. */
  blocker: string | null;
  canPay: boolean;
  canSwitch: boolean;
  canRetry: boolean;
  retryLabel: string;
  canResume: boolean;
  canCancel: boolean;
  cancelLabel: string;
  canBack: boolean;
  /** The form's submit: the one main action the panel offers now (switch, retry, resume or pay). */
  submit: () => void;
  /** The purchase agreement and terms checkbox (review panel). */
  getTermsProps: () => CheckboxProps;
  /** The main actions, each a submit button of the form (which sends the one the panel offers). */
  getPayButtonProps: () => ButtonProps;
  getSwitchButtonProps: () => ButtonProps;
  getRetryButtonProps: () => ButtonProps;
  getResumeButtonProps: () => ButtonProps;
  /** Cancel this payment, or the other one that blocks it. */
  getCancelButtonProps: () => ButtonProps;
  getBackButtonProps: () => ButtonProps;
}

const STATUS: Partial<Record<string, string>> = {
  estimating: 'Converting the price to NFM…',
  connecting: 'Connect your wallet…',
  switching: 'Switch the network in your wallet…',
  creating: 'Preparing the payment…',
  findingBlocker: 'Looking up your other payment…',
  cancelingBlocker: 'Canceling your other payment…',
  restoring: 'Checking your payment…',
  signing: 'Sign the payment in your wallet…',
  checkingTransfer: 'Checking the chain for your transfer…',
  transferPending: 'A transaction from your wallet is waiting to be confirmed…',
  transferring: 'Confirm the NFM transfer in your wallet…',
  validating: 'pending payment',
  waiting: 'pending payment',
  unconfirmed: 'The transfer is not confirmed on chain yet.',
  canceling: 'Canceling the payment…',
  received: 'received payment',
  paid: 'received payment',
};
const CHECK_AGAIN = ['unconfirmed', 'lowFunds', 'restoreFailed'];

type TokenChargeSnapshot = SnapshotFrom<typeof tokenChargeMachine>;

/** The panel shown: the end, a missing wallet, the network, low funds, another payment, a refusal, the payment or the review. */
function panelOf(snapshot: TokenChargeSnapshot, blocked: boolean): TokenChargeView['panel'] {
  const { context } = snapshot;
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('noWallet')) return 'noWallet';
  if (snapshot.matches('wrongNetwork') || snapshot.matches('switching')) return 'network';
  if (snapshot.matches('lowFunds')) return 'lowFunds';
  if (blocked) return 'blocked';
  if (snapshot.matches('rejected')) return 'rejected';
  if (context.charge || snapshot.matches('restoring') || snapshot.matches('restoreFailed')) return 'paying';
  return 'review';
}

/** The buyer's other NFM payment that waits (one at a time), named by its item. */
function blockerText(context: TokenChargeSnapshot['context']): string | null {
  const other = context.blocker;
  if (!other) return null;
  const otherItem = other.order?.item.title;
  const item = sameItem(context.item, chargeItem(other))
    ? 'this item'
    : otherItem
      ? `“${otherItem}”`
      : 'another item';
  return `Your payment of ${formatNfm(other.tokenAmount)} for ${item} is waiting.`;
}

export function connectTokenCharge(
  snapshot: TokenChargeSnapshot,
  send: (event: TokenChargeEvent) => void,
): TokenChargeView {
  const { context } = snapshot;
  const state = typeof snapshot.value === 'string' ? snapshot.value : '';
  const price = formatUsd(context.price);
  const amount = context.charge?.tokenAmount ?? context.estimate?.value ?? null;
  const blocked = ['findingBlocker', 'blocked', 'cancelingBlocker'].includes(state);
  const panel = panelOf(snapshot, blocked);
  const can = {
    switch: snapshot.can({ type: 'token.switch' }),
    retry: snapshot.can({ type: 'token.retry' }),
    resume: snapshot.can({ type: 'token.resume' }),
  };
  const busy = snapshot.hasTag('busy');
  const canCancel = snapshot.can({ type: 'token.cancel' });
  const canBack = snapshot.can({ type: 'token.back' });
  return {
    panel,
    title: 'Pay with NFM',
    busy,
    itemTitle: context.item.title,
    price,
    estimate: amount ? `≈ ${formatNfm(amount)}` : null,
    acknowledged: context.acknowledged,
    payLabel: `Pay ${price} in NFM`,
    status: STATUS[state] ?? null,
    error:
      panel === 'lowFunds'
        ? errorMessage({ code: ErrorCode.ETH_INSUFFICIENT_FUNDS })
        : context.error
          ? errorMessage(context.error)
          : null,
    nonCancelable:
      context.transactionHash || context.transferSeen
        ? 'The NFM transfer was sent: this payment can no longer be canceled.'
        : null,
    blocker: blockerText(context),
    canPay: snapshot.can({ type: 'token.submit' }),
    canSwitch: can.switch,
    canRetry: can.retry,
    retryLabel: CHECK_AGAIN.includes(state) ? 'Check again' : 'Try again',
    canResume: can.resume,
    canCancel,
    cancelLabel: blocked ? 'Cancel that payment' : 'Cancel payment',
    canBack,
    submit: () =>
      send({
        type: can.switch
          ? 'token.switch'
          : can.retry
            ? 'token.retry'
            : can.resume
              ? 'token.resume'
              : 'token.submit',
      }),
    getTermsProps: () => ({
      checked: context.acknowledged,
      disabled: busy,
      onChange: (value) => send({ type: 'token.acknowledge', value }),
      'data-state': context.acknowledged ? 'checked' : 'unchecked',
    }),
    getPayButtonProps: () =>
      buttonProps({ type: 'submit', disabled: !snapshot.can({ type: 'token.submit' }), busy }),
    getSwitchButtonProps: () => buttonProps({ type: 'submit', disabled: !can.switch }),
    getRetryButtonProps: () => buttonProps({ type: 'submit', disabled: !can.retry }),
    getResumeButtonProps: () => buttonProps({ type: 'submit', disabled: !can.resume }),
    getCancelButtonProps: () =>
      buttonProps({ onClick: () => send({ type: 'token.cancel' }), disabled: !canCancel }),
    getBackButtonProps: () =>
      buttonProps({ onClick: () => send({ type: 'token.back' }), disabled: !canBack }),
  };
}
