import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  type CryptoPaymentEvent,
  connectCryptoPayment,
  type cryptoPaymentMachine,
} from '../../../machines/cryptoPayment';
import { Button } from '../components';
import './crypto.css';
import { PurchaseTerms } from './PurchaseTerms';

/**
 * The crypto rail of the checkout: the item and price, the coins the provider's page takes, the
 * network warning, the purchase agreement and terms, and Pay, which opens the provider's hosted
 * payment page. Everything it shows comes from connectCryptoPayment; its outcome is the machine's output.
 */
export function CryptoPanel({ actor }: { actor: ActorRefFrom<typeof cryptoPaymentMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectCryptoPayment(snapshot, (event: CryptoPaymentEvent) => actor.send(event));
  const titleId = useId();
  const coinsId = useId();

  if (view.panel === 'done') return null;
  return (
    <section className="vt-crypto-panel" aria-labelledby={titleId} aria-busy={view.busy || undefined}>
      <header className="vt-crypto-panel__header">
        <h2 id={titleId}>{view.title}</h2>
        <p className="vt-muted">
          {view.itemTitle} · {view.price}
        </p>
      </header>

      <form className="vt-crypto-panel__form" {...view.getFormProps()}>
        <div>
          <p id={coinsId} className="vt-crypto-panel__label">
            Coins accepted on the payment page
          </p>
          <ul className="vt-crypto-coins" aria-labelledby={coinsId}>
            {view.coins.map((coin) => (
              <li key={coin.symbol} className="vt-crypto-coins__coin">
                <span className="vt-crypto-coins__symbol">{coin.symbol}</span>{' '}
                <span className="vt-muted">{coin.name}</span>
              </li>
            ))}
          </ul>
        </div>

        <p className="vt-crypto-panel__warning" role="note">
          {view.warning}
        </p>

        <PurchaseTerms className="vt-crypto-panel__terms" {...view.getTermsProps()} />

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
        <p className="vt-muted vt-crypto-panel__receipt">{view.receipt}</p>

        <div className="vt-actions vt-crypto-panel__actions">
          <Button variant="secondary" {...view.getBackButtonProps()}>
            Back
          </Button>
          <Button {...view.getPayButtonProps()} loading={view.busy}>
            {view.payLabel}
          </Button>
        </div>
      </form>
    </section>
  );
}
