import type { SnapshotFrom } from 'xstate';
import { errorMessage } from '#domain/errors';
import { formatUsd, shortfallCents } from '#domain/money';
import { topupAmount } from '#domain/schemas/crypto';
import type { BuyListingEvent, buyListingMachine } from './buyListing';
import { returnedTopupMessage, topupWaitingStatus } from './cryptoTopup';
import { type ButtonProps, buttonProps, type CheckboxProps } from './props';

/**
 * The buy dialog's view model (connectBuyListing): what the dialog shows of a buyListing snapshot and
 * prop getters (zag's style) that the dialog spreads on its controls, each sending its event.
 */
export type BuyListingPanel =
  /** Reading the balance, or (back from a top-up's page) awaiting the top-up's FUSD first. */
  | 'checking'
  | 'balanceFailed'
  /** Below the price: top up with crypto or check again (also while the top-up opens). */
  | 'insufficient'
  /** The terms, then the wallet's signature and the record. */
  | 'confirm'
  | 'recordFailed'
  | 'purchased'
  /** Closed: nothing to show. */
  | 'done';

export interface BuyListingView {
  panel: BuyListingPanel;
  title: string;
  busy: boolean;
  /** The listing's price ("$25"). */
  price: string;
  payLabel: string;
  /** The balance once read, while it matters. */
  balance: string | null;
  /** "Add at least $X to your balance, then check again." while the balance is short. */
  shortfall: string | null;
  /** What is under way ("Checking your balance…", "Approve the payment in your wallet…"). */
  status: string | null;
  /** What the purchased or unrecorded panel says. */
  note: string | null;
  /** Back from a top-up: how it went ("Added $13 to your balance."), once it is no longer awaited. */
  topupNote: string | null;
  acknowledged: boolean;
  canAcknowledge: boolean;
  canPay: boolean;
  /** Check the balance again, or record again: shown (maybe disabled) where it applies. */
  retryButton: { label: string; enabled: boolean } | null;
  /** The crypto top-up of the shortfall ("Add $13 with crypto"): shown where the crypto rail runs. */
  topupButton: { label: string; enabled: boolean; loading: boolean } | null;
  error: string | null;
  closeLabel: string;
  canClose: boolean;
  /** The dialog itself: Escape and its close button close it when the machine allows. */
  getDialogProps: () => { onClose: () => void; showCloseButton: boolean };
  /** The purchase agreement and terms checkbox. */
  getTermsProps: () => CheckboxProps;
  getPayButtonProps: () => ButtonProps;
  getRetryButtonProps: () => ButtonProps;
  getTopupButtonProps: () => ButtonProps;
  /** Cancel or Close (`closeLabel`). */
  getCloseButtonProps: () => ButtonProps;
}

function buyPanel(snapshot: SnapshotFrom<typeof buyListingMachine>): BuyListingPanel {
  if (snapshot.matches('closed') || snapshot.matches('unrecorded')) return 'done';
  if (snapshot.matches('purchased')) return 'purchased';
  if (snapshot.matches('checkingBalance') || snapshot.matches('awaitingTopup')) return 'checking';
  if (snapshot.matches('balanceFailed')) return 'balanceFailed';
  if (snapshot.matches('recordFailed')) return 'recordFailed';
  if (snapshot.matches('insufficientFunds') || snapshot.matches('toppingUp') || snapshot.matches('redirect'))
    return 'insufficient';
  return 'confirm';
}

const statuses: Array<[string, string]> = [
  ['checkingBalance', 'Checking your balance…'],
  ['toppingUp', 'Opening the crypto payment page…'],
  ['redirect', 'Opening the crypto payment page…'],
  ['signing', 'Approve the payment in your wallet…'],
  ['recording', 'Confirming your purchase…'],
];

export function connectBuyListing(
  snapshot: SnapshotFrom<typeof buyListingMachine>,
  send: (event: BuyListingEvent) => void,
): BuyListingView {
  const { context } = snapshot;
  const panel = buyPanel(snapshot);
  const busy = snapshot.hasTag('busy');
  const price = formatUsd(context.listing.price);
  const balance = context.balance ?? 0;
  const openingTopup = snapshot.matches('toppingUp') || snapshot.matches('redirect');
  const topupShown = snapshot.can({ type: 'buy.topup' }) || openingTopup;
  const awaiting = snapshot.matches('awaitingTopup');
  const can = (type: 'buy.submit' | 'buy.retry' | 'buy.topup' | 'buy.close') => snapshot.can({ type });
  /** A button that sends `type`, enabled when the machine takes it. */
  const button = (type: Parameters<typeof can>[0], working = false) =>
    buttonProps({ onClick: () => send({ type }), disabled: !can(type), busy: working });
  return {
    panel,
    title: panel === 'purchased' ? 'Purchase Complete' : `Buy for ${price}`,
    busy,
    price,
    payLabel: `Pay ${price}`,
    balance: context.balance !== null && panel !== 'purchased' ? formatUsd(context.balance) : null,
    shortfall:
      panel === 'insufficient'
        ? `Add at least ${formatUsd(shortfallCents(context.listing.price, balance))} to your balance, then check again.`
        : null,
    status: awaiting
      ? topupWaitingStatus(context.topup)
      : (statuses.find(([state]) => snapshot.matches(state as never))?.[1] ?? null),
    note:
      panel === 'purchased'
        ? 'The collectible is in your wallet. It shows in your collection now.'
        : panel === 'recordFailed'
          ? 'The collectible is in your wallet. We could not save the purchase just now; try again, or close to follow it on its purchase page.'
          : null,
    topupNote:
      context.returnedTopup && !awaiting && panel !== 'purchased'
        ? returnedTopupMessage(context.topup)
        : null,
    acknowledged: context.acknowledged,
    canAcknowledge: snapshot.can({ type: 'buy.acknowledge', value: !context.acknowledged }),
    canPay: snapshot.can({ type: 'buy.submit' }),
    retryButton:
      panel === 'balanceFailed' || panel === 'insufficient' || panel === 'recordFailed'
        ? {
            label: panel === 'insufficient' ? 'Check balance again' : 'Try again',
            enabled: snapshot.can({ type: 'buy.retry' }),
          }
        : null,
    topupButton: topupShown
      ? {
          label: `Add ${formatUsd(topupAmount(context.listing.price, balance))} with crypto`,
          enabled: snapshot.can({ type: 'buy.topup' }),
          loading: openingTopup,
        }
      : null,
    error: context.error ? errorMessage(context.error) : null,
    closeLabel:
      panel === 'confirm' && busy ? 'Waiting for the wallet…' : panel === 'confirm' ? 'Cancel' : 'Close',
    canClose: snapshot.can({ type: 'buy.close' }),
    getDialogProps: () => ({
      onClose: () => {
        if (can('buy.close')) send({ type: 'buy.close' });
      },
      showCloseButton: can('buy.close'),
    }),
    getTermsProps: () => ({
      checked: context.acknowledged,
      disabled: !snapshot.can({ type: 'buy.acknowledge', value: !context.acknowledged }),
      onChange: (value) => send({ type: 'buy.acknowledge', value }),
      'data-state': context.acknowledged ? 'checked' : 'unchecked',
    }),
    getPayButtonProps: () => button('buy.submit', busy),
    getRetryButtonProps: () => button('buy.retry'),
    getTopupButtonProps: () => button('buy.topup', openingTopup),
    getCloseButtonProps: () => button('buy.close'),
  };
}
