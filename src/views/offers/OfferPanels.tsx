import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { type acceptOfferMachine, connectAcceptOffer } from '../../../machines/acceptOffer';
import { type cancelOfferMachine, connectCancelOffer } from '../../../machines/cancelOffer';
import { connectMakeOffer, type makeOfferMachine } from '../../../machines/makeOffer';
import { Button, Modal, TextInput } from '../components';
import { ErrorText, type PanelProps, Status } from '../components/FlowText';
import './offers.css';

/**
 * The wallet-signed offer actions as dialogs: make an offer, accept one, cancel one's own. Each
 * renders its machine's view model and sends its events; a finished flow shows nothing.
 */
export function MakeOfferDialog({ actor }: PanelProps<ActorRefFrom<typeof makeOfferMachine>>) {
  const view = connectMakeOffer(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  if (view.panel === 'done') return null;
  return (
    <Modal
      open
      {...view.getDialogProps()}
      title={view.title}
      footer={
        view.panel === 'made' ? (
          <Button {...view.getCloseButtonProps()}>Done</Button>
        ) : view.panel === 'recordFailed' ? (
          <>
            <Button variant="secondary" {...view.getCloseButtonProps()}>
              Close
            </Button>
            <Button {...view.getRetryButtonProps()}>Try again</Button>
          </>
        ) : view.panel === 'review' ? (
          <>
            <Button variant="secondary" {...view.getBackButtonProps()}>
              Back
            </Button>
            <Button {...view.getConfirmButtonProps()} loading={view.busy}>
              Make offer
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" {...view.getCloseButtonProps()}>
              Cancel
            </Button>
            <Button {...view.getReviewButtonProps()} form="make-offer">
              Review offer
            </Button>
          </>
        )
      }
    >
      {view.panel === 'form' && (
        <form id="make-offer" className="vt-stack" {...view.getFormProps()}>
          <TextInput
            label="Your offer (USD)"
            inputMode="decimal"
            autoComplete="off"
            hint="Between $1 and $10,000, paid in FUSD from your wallet if the owner accepts."
            {...view.getAmountInputProps()}
          />
          <fieldset className="vt-offer__expiry">
            <legend className="vt-field__label">Offer expires in</legend>
            {view.expiryOptions.map((option) => {
              const radio = view.getExpiryOptionProps(option.days);
              return (
                <label key={option.days} className="vt-offer__expiry-option">
                  <input
                    type="radio"
                    name="offer-expiry"
                    checked={radio.checked}
                    disabled={radio.disabled}
                    onChange={() => radio.onChange(true)}
                  />
                  <span>{option.label}</span>
                </label>
              );
            })}
          </fieldset>
        </form>
      )}
      {view.panel === 'review' && (
        <dl className="vt-summary">
          <dt>Your offer</dt>
          <dd>{view.review.amount}</dd>
          <dt>Expires in</dt>
          <dd>{view.review.expiry}</dd>
        </dl>
      )}
      {(view.panel === 'form' || view.panel === 'review') && view.balance !== null && (
        <dl className="vt-summary">
          <dt>Your balance</dt>
          <dd>{view.balance}</dd>
        </dl>
      )}
      {(view.panel === 'form' || view.panel === 'review') && view.balanceNote && (
        <p className="vt-offer__note">{view.balanceNote}</p>
      )}
      {view.panel === 'made' && <p>{view.madeText}</p>}
      {view.panel === 'recordFailed' && (
        <p>
          Your offer is on the blockchain. We could not save it just now; it appears on the item within a few
          minutes anyway.
        </p>
      )}
      <Status text={view.status} />
      <ErrorText error={view.error} />
    </Modal>
  );
}

export function AcceptOfferDialog({ actor }: PanelProps<ActorRefFrom<typeof acceptOfferMachine>>) {
  const view = connectAcceptOffer(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  if (view.panel === 'done') return null;
  return (
    <Modal
      open
      {...view.getDialogProps()}
      title={view.title}
      footer={
        <>
          <Button
            variant={view.panel === 'accepted' ? 'primary' : 'secondary'}
            {...view.getCloseButtonProps()}
          >
            {view.closeLabel}
          </Button>
          {view.panel === 'kycRequired' && (
            <Link className="vt-button vt-button--primary" to="/settings/account">
              Verify identity
            </Link>
          )}
          {view.panel === 'recordFailed' && <Button {...view.getRetryButtonProps()}>Try again</Button>}
          {view.panel === 'review' && (
            <Button {...view.getAcceptButtonProps()} loading={view.busy}>
              Accept offer
            </Button>
          )}
        </>
      }
    >
      {view.panel === 'review' && (
        <dl className="vt-summary">
          <dt>Offer</dt>
          <dd>{view.summary.amount}</dd>
          <dt>Creator royalty</dt>
          <dd>{view.summary.royalty}</dd>
          <dt>Platform fee</dt>
          <dd>{view.summary.platformFee}</dd>
          <dt>You receive</dt>
          <dd>{view.summary.net}</dd>
        </dl>
      )}
      <p>{view.text}</p>
      <Status text={view.status} />
      <ErrorText error={view.error} />
    </Modal>
  );
}

export function CancelOfferDialog({ actor }: PanelProps<ActorRefFrom<typeof cancelOfferMachine>>) {
  const view = connectCancelOffer(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  if (view.panel === 'done') return null;
  return (
    <Modal
      open
      size="sm"
      {...view.getDialogProps()}
      title={view.title}
      footer={
        <>
          <Button
            variant={view.panel === 'canceled' ? 'primary' : 'secondary'}
            {...view.getCloseButtonProps()}
          >
            {view.closeLabel}
          </Button>
          {view.panel === 'recordFailed' && <Button {...view.getRetryButtonProps()}>Try again</Button>}
          {view.panel === 'confirming' && (
            <Button variant="danger" {...view.getConfirmButtonProps()} loading={view.busy}>
              Cancel offer
            </Button>
          )}
        </>
      }
    >
      <p>{view.text}</p>
      <Status text={view.status} />
      <ErrorText error={view.error} />
    </Modal>
  );
}
