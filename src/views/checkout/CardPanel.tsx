import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CardPaymentEvent, cardPaymentMachine } from '../../../machines/cardPayment';
import { connectCardPayment } from '../../../machines/cardPaymentView';
import { Button, Spinner, TextInput } from '../components';
import { BillingForm } from './BillingForm';
import './card.css';
import { PurchaseTerms } from './PurchaseTerms';

/**
 * The card rail of the checkout: saved cards or a new card, the purchase agreement and terms, and
 * Pay. Everything it shows comes from connectCardPayment; its outcome is the machine's output.
 */
export function CardPanel({ actor }: { actor: ActorRefFrom<typeof cardPaymentMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectCardPayment(snapshot, (event: CardPaymentEvent) => actor.send(event));
  const titleId = useId();

  if (view.panel === 'done') return null;
  return (
    <section className="vt-card-panel" aria-labelledby={titleId} aria-busy={view.busy || undefined}>
      <header className="vt-card-panel__header">
        <h2 id={titleId}>Pay by card</h2>
        <p className="vt-muted">
          {view.itemTitle} · {view.price}
        </p>
      </header>

      {(view.panel === 'loading' || view.panel === 'restoring') && (
        <div className="vt-card-panel__status">
          <Spinner label={view.status ?? 'Loading'} />
          <span aria-hidden="true">{view.status}</span>
          {view.canBack && (
            <Button variant="secondary" size="sm" {...view.getBackButtonProps()}>
              Back
            </Button>
          )}
        </div>
      )}

      {view.panel === 'restoreFailed' && (
        <>
          <p className="vt-form-error" role="alert">
            {view.error}
          </p>
          <div className="vt-actions">
            <Button variant="secondary" {...view.getBackButtonProps()}>
              Back
            </Button>
            <Button {...view.getRetryButtonProps()}>Try again</Button>
          </div>
        </>
      )}

      {view.panel === 'form' && (
        <form className="vt-card-panel__form" {...view.getFormProps()}>
          {view.method === 'saved' ? (
            <fieldset className="vt-billing__group" disabled={view.busy}>
              <legend className="vt-billing__legend">Saved cards</legend>
              <ul className="vt-saved-cards">
                {view.savedCards.map((card) => {
                  const { onChange, ...radio } = view.getSavedCardProps(card);
                  return (
                    <li key={card.id}>
                      <label className="vt-saved-cards__option">
                        <input
                          type="radio"
                          name="saved-card"
                          value={card.id}
                          {...radio}
                          onChange={(e) => onChange(e.target.checked)}
                        />
                        <span className="vt-saved-cards__label">{card.label}</span>
                        {card.expiry && <span className="vt-muted">{card.expiry}</span>}
                      </label>
                    </li>
                  );
                })}
              </ul>
              {view.cvv && (
                <TextInput
                  label="Security code (CVV)"
                  name="saved-cvv"
                  autoComplete="cc-csc"
                  inputMode="numeric"
                  maxLength={4}
                  containerClassName="vt-card-panel__cvv"
                  value={view.cvv.value}
                  error={view.cvv.error ?? undefined}
                  onChange={(e) => view.setCvv(e.target.value)}
                />
              )}
              <button className="vt-link-button" {...view.getNewCardButtonProps()}>
                Use a new card
              </button>
            </fieldset>
          ) : (
            <>
              {view.canUseSaved && (
                <button className="vt-link-button vt-card-panel__switch" {...view.getSavedCardButtonProps()}>
                  Use a saved card
                </button>
              )}
              {view.form && (
                <BillingForm form={view.form} onChange={view.change} disabled={view.busy} withSave />
              )}
            </>
          )}

          <PurchaseTerms className="vt-card-panel__terms" {...view.getTermsProps()} />

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
          <p className="vt-muted vt-card-panel__receipt">{view.receipt}</p>

          <div className="vt-actions vt-card-panel__actions">
            <Button variant="secondary" {...view.getBackButtonProps()}>
              Back
            </Button>
            <Button {...view.getPayButtonProps()} loading={view.busy}>
              {view.payLabel}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
