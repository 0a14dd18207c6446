import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  connectWalletPayment,
  type WalletPaymentEvent,
  type walletPaymentMachine,
} from '../../../machines/walletPayment';
import { Button } from '../components';
import './balance.css';
import { PurchaseTerms } from './PurchaseTerms';

/**
 * The "mobile wallet pay" panel of the checkout (Apple Pay, Google Pay): the item and price, the
 * purchase agreement and terms, and Pay, which opens the wallet's payment sheet (the sheet actor
 * owns it; the click starts it, as Apple requires). Everything it shows comes from
 * connectWalletPayment; its outcome is the machine's output.
 */
export function WalletPanel({ actor }: { actor: ActorRefFrom<typeof walletPaymentMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectWalletPayment(snapshot, (event: WalletPaymentEvent) => actor.send(event));
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
        <PurchaseTerms
          className="vt-balance-panel__terms"
          checked={view.acknowledged}
          disabled={view.busy}
          onChange={view.acknowledge}
        />
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
          <Button type="submit" loading={view.busy} disabled={!view.canPay}>
            {view.payLabel}
          </Button>
        </div>
      </form>
    </section>
  );
}
