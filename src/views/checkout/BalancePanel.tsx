import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  type BalancePaymentEvent,
  type balancePaymentMachine,
  connectBalancePayment,
} from '../../../machines/balancePayment';
import { Button } from '../components';
import './balance.css';
import { PurchaseTerms } from './PurchaseTerms';

/**
 * The balance rail of the checkout: the item, its price and the wallet's FUSD balance. With enough
 * balance: the purchase agreement and terms, and Pay, which the wallet approves. Short of the
 * price: "Insufficient funds" and the crypto top-up offer. Everything it shows comes from
 * connectBalancePayment; its outcome is the machine's output.
 */
export function BalancePanel({ actor }: { actor: ActorRefFrom<typeof balancePaymentMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectBalancePayment(snapshot, (event: BalancePaymentEvent) => actor.send(event));
  const titleId = useId();

  if (view.panel === 'done') return null;
  return (
    <section className="vt-balance-panel" aria-labelledby={titleId} aria-busy={view.busy || undefined}>
      <header className="vt-balance-panel__header">
        <h2 id={titleId}>{view.title}</h2>
        <p className="vt-muted">
          {view.itemTitle} · {view.price}
        </p>
      </header>

      <form
        className="vt-balance-panel__form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (view.panel === 'short') view.topUp();
          else view.pay();
        }}
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
          <PurchaseTerms
            className="vt-balance-panel__terms"
            checked={view.acknowledged}
            disabled={view.busy}
            onChange={view.acknowledge}
          />
        )}
        {view.error && (
          <p className="vt-form-error" role="alert">
            {view.error}
          </p>
        )}
        {view.status && (
          <p className="vt-muted" aria-live="polite">
            {view.status}
          </p>
        )}

        <div className="vt-actions">
          <Button variant="secondary" onClick={view.back} disabled={!view.canBack}>
            Back
          </Button>
          {(view.panel === 'short' || view.panel === 'failed') && (
            <Button variant="secondary" onClick={view.retry} disabled={!view.canRetry}>
              {view.retryLabel}
            </Button>
          )}
          {view.panel === 'short' && view.topupLabel && (
            <Button type="submit" loading={view.busy} disabled={!view.canTopUp}>
              {view.topupLabel}
            </Button>
          )}
          {view.panel === 'review' && (
            <Button type="submit" loading={view.busy} disabled={!view.canPay}>
              {view.payLabel}
            </Button>
          )}
        </div>
      </form>
    </section>
  );
}
