import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  connectOnrampPayment,
  type OnrampPaymentEvent,
  type onrampPaymentMachine,
} from '../../../machines/onrampPayment';
import { Button } from '../components';
import './balance.css';
import { PurchaseTerms } from './PurchaseTerms';

/**
 * The on-ramp rail of the checkout: the item and price, the purchase agreement and terms, and Pay,
 * which opens the provider's payment window over the page (the widget actor owns it). While it is
 * open or a payment is being confirmed, the panel says so. Everything it shows comes from
 * connectOnrampPayment; its outcome is the machine's output.
 */
export function OnrampPanel({ actor }: { actor: ActorRefFrom<typeof onrampPaymentMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectOnrampPayment(snapshot, (event: OnrampPaymentEvent) => actor.send(event));
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
          view.pay();
        }}
      >
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
        <p className="vt-muted">{view.receipt}</p>
        <div className="vt-actions">
          <Button variant="secondary" onClick={view.back} disabled={!view.canBack}>
            Back
          </Button>
          {(view.panel === 'review' || view.canPay) && (
            <Button type="submit" loading={view.busy} disabled={!view.canPay}>
              {view.payLabel}
            </Button>
          )}
        </div>
      </form>
    </section>
  );
}
