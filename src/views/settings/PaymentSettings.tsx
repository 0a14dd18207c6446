import { getRouteApi } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import {
  connectSavedCards,
  type SavedCardsEvent,
  type savedCardsMachine,
} from '../../../machines/savedCards';
import { useApp } from '../AppContext';
import { BillingForm } from '../checkout/BillingForm';
import { Button, ConfirmModal, Modal, Spinner } from '../components';
import '../checkout/card.css';

const paymentRoute = getRouteApi('/_authenticated/settings/payment');

/** Settings → Payment: the machine comes with the route, one actor per visit. */
export function PaymentSettings() {
  const { inspect } = useApp();
  const machine = paymentRoute.useLoaderData({ select: (d) => d.machine });
  const actor = useActorRef(machine, { inspect });
  return <PaymentSettingsView actor={actor} />;
}

/** The saved cards (masked to the last four digits), "Add card" and "Remove" after confirming. */
export function PaymentSettingsView({ actor }: { actor: ActorRefFrom<typeof savedCardsMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectSavedCards(snapshot, (event: SavedCardsEvent) => actor.send(event));
  const listing = view.panel === 'list';
  return (
    <section className="vt-card" aria-labelledby="payment-settings-title" aria-busy={view.busy || undefined}>
      <header className="vt-card__header">
        <h2 id="payment-settings-title">Saved cards</h2>
        {listing && (
          <Button variant="secondary" onClick={view.add} disabled={!view.canAdd}>
            Add card
          </Button>
        )}
      </header>

      {view.panel === 'loading' && <Spinner label="Loading your cards" />}

      {view.panel === 'loadFailed' && (
        <div role="alert">
          <p>Your cards could not be loaded.</p>
          <p className="vt-muted">{view.error}</p>
          <Button onClick={view.retry}>Try again</Button>
        </div>
      )}

      {listing && (
        <>
          {view.cards.length === 0 ? (
            <p className="vt-muted">
              No saved cards yet. Cards you save at checkout or add here show up here.
            </p>
          ) : (
            <ul className="vt-saved-cards" aria-label="Your cards">
              {view.cards.map((card) => (
                <li key={card.id} className="vt-saved-cards__row" data-testid="saved-card">
                  <span>
                    <strong>{card.label}</strong>
                    {card.expiry && <span className="vt-muted"> · {card.expiry}</span>}
                  </span>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove ${card.label}`}
                    disabled={view.busy}
                    onClick={() => view.remove(card.id)}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          )}
          {!view.form && !view.confirmRemove && view.error && (
            <p className="vt-form-error" role="alert">
              {view.error}
            </p>
          )}
        </>
      )}

      <Modal
        open={!!view.form}
        onClose={view.saving ? () => {} : view.close}
        showCloseButton={!view.saving}
        title="Add a card"
        size="lg"
        footer={
          <>
            <Button variant="secondary" onClick={view.close} disabled={view.saving}>
              Cancel
            </Button>
            <Button type="submit" form="add-card" loading={view.saving}>
              Save card
            </Button>
          </>
        }
      >
        {view.form && (
          <form
            id="add-card"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              view.submit();
            }}
          >
            <BillingForm form={view.form} onChange={view.change} disabled={view.saving} />
            {view.error && (
              <p className="vt-form-error" role="alert">
                {view.error}
              </p>
            )}
          </form>
        )}
      </Modal>

      <ConfirmModal
        open={!!view.confirmRemove}
        title="Remove this card?"
        message={
          view.confirmRemove ? `${view.confirmRemove.label} will no longer be offered at checkout.` : ''
        }
        confirmLabel="Remove card"
        danger
        loading={view.removing}
        onConfirm={view.confirm}
        onCancel={view.removing ? () => {} : view.close}
      />
    </section>
  );
}
