import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { buyListingMachine } from '../../../machines/buyListing';
import { connectBuyListing } from '../../../machines/buyListingView';
import { connectListForSale, type listForSaleMachine } from '../../../machines/listForSale';
import { connectRemoveListing, type removeListingMachine } from '../../../machines/removeListing';
import { connectTransferNfts, type transferNftsMachine } from '../../../machines/transferNfts';
import { Button, Modal, TextInput } from '../components';
import { ErrorText, type PanelProps, Status } from '../components/FlowText';

/**
 * The wallet-signed NFT actions as dialogs: list for sale, remove a listing, buy a listing with the
 * stablecoin balance, and transfer. Each renders its machine's view model and sends its events; how
 * a flow ended reaches the page through the machine's output, and a finished flow shows nothing.
 */
export function ListForSaleDialog({ actor }: PanelProps<ActorRefFrom<typeof listForSaleMachine>>) {
  const view = connectListForSale(
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
        view.panel === 'listed' ? (
          <Button {...view.getCloseButtonProps()}>Done</Button>
        ) : view.panel === 'kycRequired' ? (
          <>
            <Button variant="secondary" {...view.getCloseButtonProps()}>
              Close
            </Button>
            <Link className="vt-button vt-button--primary" to="/settings/account">
              Verify identity
            </Link>
          </>
        ) : view.panel === 'recordFailed' ? (
          <>
            <Button variant="secondary" {...view.getCloseButtonProps()}>
              Close
            </Button>
            <Button {...view.getRetryButtonProps()}>Try again</Button>
          </>
        ) : (
          <>
            <Button variant="secondary" {...view.getCloseButtonProps()}>
              {view.busy ? 'Waiting for the wallet…' : 'Cancel'}
            </Button>
            <Button {...view.getSubmitButtonProps()} form="list-for-sale" loading={view.busy}>
              List for sale
            </Button>
          </>
        )
      }
    >
      {view.panel === 'kycRequired' && <ErrorText error={view.error} />}
      {view.panel === 'listed' && <p>{view.listedText}</p>}
      {view.panel === 'recordFailed' && (
        <>
          <p>
            Your listing is on the blockchain. We could not save it just now; it appears on the marketplace
            within a few minutes anyway.
          </p>
          <ErrorText error={view.error} />
        </>
      )}
      {view.panel === 'form' && (
        <form id="list-for-sale" className="vt-stack" {...view.getFormProps()}>
          <TextInput
            label="Price (USD)"
            inputMode="decimal"
            autoComplete="off"
            hint="Between $0.01 and $10,000."
            {...view.getPriceInputProps()}
          />
          {view.summary && (
            <dl className="vt-summary">
              <dt>Creator royalty</dt>
              <dd>{view.summary.royalty}</dd>
              <dt>Platform fee</dt>
              <dd>{view.summary.platformFee}</dd>
              <dt>You receive</dt>
              <dd>{view.summary.net}</dd>
            </dl>
          )}
          <Status text={view.status} />
          <ErrorText error={view.error} />
        </form>
      )}
    </Modal>
  );
}

export function RemoveListingDialog({ actor }: PanelProps<ActorRefFrom<typeof removeListingMachine>>) {
  const view = connectRemoveListing(
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
        view.panel === 'removed' ? (
          <Button {...view.getCloseButtonProps()}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" {...view.getCloseButtonProps()}>
              {view.closeLabel}
            </Button>
            {view.panel === 'recordFailed' ? (
              <Button {...view.getRetryButtonProps()}>Try again</Button>
            ) : (
              <Button variant="danger" {...view.getConfirmButtonProps()} loading={view.busy}>
                Remove listing
              </Button>
            )}
          </>
        )
      }
    >
      <p>{view.text}</p>
      <Status text={view.status} />
      <ErrorText error={view.error} />
    </Modal>
  );
}

/**
 * The buy dialog. A purchase or a top-up's page ends the flow: the page or the checkout that opened
 * it reads the machine's output.
 */
export function BuyListingDialog({
  actor,
}: PanelProps<ActorRefFrom<typeof buyListingMachine>> & {
  /** Not read: how the flow ended is the machine's output. The checkout dialog still passes it. */
  onDone?: unknown;
}) {
  const view = connectBuyListing(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  if (view.panel === 'done') return null;
  const terms = view.getTermsProps();
  return (
    <Modal
      open
      {...view.getDialogProps()}
      title={view.title}
      footer={
        view.panel === 'purchased' ? (
          <Link className="vt-button vt-button--primary" to="/profile/collection">
            View my collection
          </Link>
        ) : view.panel === 'confirm' ? (
          <>
            <Button variant="secondary" {...view.getCloseButtonProps()}>
              {view.closeLabel}
            </Button>
            <Button {...view.getPayButtonProps()} loading={view.busy}>
              {view.payLabel}
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" {...view.getCloseButtonProps()}>
              {view.closeLabel}
            </Button>
            {view.retryButton && (
              <Button variant={view.topupButton ? 'secondary' : 'primary'} {...view.getRetryButtonProps()}>
                {view.retryButton.label}
              </Button>
            )}
            {view.topupButton && (
              <Button {...view.getTopupButtonProps()} loading={view.topupButton.loading}>
                {view.topupButton.label}
              </Button>
            )}
          </>
        )
      }
    >
      {view.panel === 'checking' && <Status text={view.status} />}
      {view.topupNote && <p className="vt-muted">{view.topupNote}</p>}
      {view.balance !== null && (
        <dl className="vt-summary">
          <dt>Price</dt>
          <dd>{view.price}</dd>
          <dt>Your balance</dt>
          <dd>{view.balance}</dd>
        </dl>
      )}
      {view.panel === 'insufficient' && (
        <>
          <ErrorText error={view.error} />
          <p>{view.shortfall}</p>
          <Status text={view.status} />
        </>
      )}
      {view.panel === 'confirm' && (
        <>
          <label className="vt-check">
            <input type="checkbox" {...terms} onChange={(e) => terms.onChange(e.target.checked)} />
            <span>
              I agree to the purchase agreement and the <Link to="/terms">Terms of Service</Link>.
            </span>
          </label>
          <Status text={view.status} />
        </>
      )}
      {view.note && <p>{view.note}</p>}
      {view.panel !== 'insufficient' && <ErrorText error={view.error} />}
    </Modal>
  );
}

export function TransferDialog({ actor }: PanelProps<ActorRefFrom<typeof transferNftsMachine>>) {
  const view = connectTransferNfts(
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
        view.panel === 'transferred' ? (
          <Button {...view.getCloseButtonProps()}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" {...view.getCloseButtonProps()}>
              {view.closeLabel}
            </Button>
            <Button {...view.getSubmitButtonProps()} form="transfer-nfts" loading={view.busy}>
              Transfer
            </Button>
          </>
        )
      }
    >
      {view.panel === 'transferred' ? (
        <p>
          Sent to <code>{view.sentTo}</code>. It leaves your collection in a few moments.
        </p>
      ) : (
        <form id="transfer-nfts" className="vt-stack" {...view.getFormProps()}>
          <p>Transfers are final: the recipient's wallet must hold a collection, and nobody can undo them.</p>
          <TextInput
            label="Recipient's Flow address"
            placeholder="0x…"
            autoComplete="off"
            spellCheck={false}
            {...view.getRecipientInputProps()}
          />
          <Status text={view.status} />
          <ErrorText error={view.error} />
        </form>
      )}
    </Modal>
  );
}
