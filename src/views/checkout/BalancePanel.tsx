import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { BalancePaymentEvent, balancePaymentMachine } from '../../../machines/balancePayment';
import { connectBalancePayment } from '../../../machines/balancePaymentView';
import { Button } from '../components';
import { PurchaseTerms } from './PurchaseTerms';
import { RailPanel } from './RailPanel';

/**
 * The balance rail of the checkout: the item, its price and the wallet's FUSD balance. With enough
 * balance: the purchase agreement and terms, and Pay, which the wallet approves. Short of the
 * price: "Insufficient funds" and the crypto top-up offer; back from the top-up's page, it waits for
 * the top-up's FUSD first and then says how it went. Everything it shows comes from
 * connectBalancePayment; its outcome is the machine's output.
 */
export function BalancePanel({ actor }: { actor: ActorRefFrom<typeof balancePaymentMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectBalancePayment(snapshot, (event: BalancePaymentEvent) => actor.send(event));
  if (view.panel === 'done') return null;
  return (
    <RailPanel
      {...view}
      receipt={view.topupNote ?? undefined}
      onSubmit={view.submit}
      actions={
        <>
          <Button variant="secondary" {...view.getBackButtonProps()}>
            Back
          </Button>
          {(view.panel === 'short' || view.panel === 'failed') && (
            <Button variant="secondary" {...view.getRetryButtonProps()}>
              {view.retryLabel}
            </Button>
          )}
          {view.panel === 'short' && view.topupLabel && (
            <Button {...view.getTopupButtonProps()} loading={view.busy}>
              {view.topupLabel}
            </Button>
          )}
          {view.panel === 'review' && (
            <Button {...view.getPayButtonProps()} loading={view.busy}>
              {view.payLabel}
            </Button>
          )}
        </>
      }
    >
      {view.balance && (
        <dl className="vt-summary">
          <dt>Your balance</dt>
          <dd>{view.balance} FUSD</dd>
          <dt>Price</dt>
          <dd>{view.price}</dd>
        </dl>
      )}
      {view.insufficient && (
        <p className="vt-balance-panel__short" role="note">
          {view.insufficient}
        </p>
      )}
      {view.panel === 'review' && (
        <PurchaseTerms className="vt-balance-panel__terms" {...view.getTermsProps()} />
      )}
    </RailPanel>
  );
}
