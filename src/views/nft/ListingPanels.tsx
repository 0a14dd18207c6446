import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { errorMessage } from '#domain/errors';
import { formatUsd, parseDollars } from '#domain/money';
import { routePaths } from '#domain/routes';
import { type buyListingMachine, connectTopupOffer } from '../../../machines/buyListing';
import { type listForSaleMachine, sellerNetCents } from '../../../machines/listForSale';
import type { removeListingMachine } from '../../../machines/removeListing';
import type { transferNftsMachine } from '../../../machines/transferNfts';
import { Button, Modal, TextInput } from '../components';

/**
 * The wallet-signed NFT actions as dialogs: list for sale, remove a listing, buy a listing with the
 * stablecoin balance, and transfer. Each renders its machine's state and sends its events; `onDone`
 * is called when the person closes a finished or canceled flow.
 */
interface PanelProps<A> {
  actor: A;
  onDone: (changed: boolean) => void;
}

function ErrorText({ error }: { error: Parameters<typeof errorMessage>[0] }) {
  if (!error) return null;
  return (
    <p className="vt-alert vt-alert--error" role="alert">
      {errorMessage(error)}
    </p>
  );
}

const closeLabel = (busy: boolean) => (busy ? 'Waiting for the wallet…' : 'Cancel');

export function ListForSaleDialog({ actor, onDone }: PanelProps<ActorRefFrom<typeof listForSaleMachine>>) {
  const state = useSelector(actor, (s) => s.value as string);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const ctx = useSelector(actor, (s) => s.context);
  const close = () => (state === 'listed' ? onDone(true) : actor.send({ type: 'listing.close' }));
  if (state === 'closed') {
    queueMicrotask(() => onDone(false));
    return null;
  }
  const cents = parseDollars(ctx.price);
  const fieldError = ctx.error?.field === 'price' ? errorMessage(ctx.error) : undefined;
  return (
    <Modal
      open
      onClose={busy ? () => {} : close}
      title={state === 'listed' ? 'Listed for sale' : 'List for sale'}
      showCloseButton={!busy}
      footer={
        state === 'listed' ? (
          <Button onClick={() => onDone(true)}>Done</Button>
        ) : state === 'kycRequired' ? (
          <>
            <Button variant="secondary" onClick={close}>
              Close
            </Button>
            <Link className="vt-button vt-button--primary" to={routePaths.AccountSettingsPage}>
              Verify identity
            </Link>
          </>
        ) : state === 'recordFailed' ? (
          <>
            <Button variant="secondary" onClick={close}>
              Close
            </Button>
            <Button onClick={() => actor.send({ type: 'listing.retry' })}>Try again</Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={close} disabled={busy}>
              {closeLabel(busy)}
            </Button>
            <Button type="submit" form="list-for-sale" loading={busy}>
              List for sale
            </Button>
          </>
        )
      }
    >
      {state === 'kycRequired' && <ErrorText error={ctx.error} />}
      {state === 'listed' && (
        <p>
          Your collectible is on the marketplace for {formatUsd(ctx.priceCents)}. Buyers pay with their
          balance; you receive the proceeds in your wallet when it sells.
        </p>
      )}
      {state === 'recordFailed' && (
        <>
          <p>
            Your listing is on the blockchain. We could not save it just now; it appears on the marketplace
            within a few minutes anyway.
          </p>
          <ErrorText error={ctx.error} />
        </>
      )}
      {(state === 'editing' || busy) && (
        <form
          id="list-for-sale"
          className="vt-stack"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'listing.submit' });
          }}
        >
          <TextInput
            label="Price (USD)"
            inputMode="decimal"
            autoComplete="off"
            value={ctx.price}
            readOnly={busy}
            error={fieldError}
            hint="Between $0.01 and $10,000."
            onChange={(e) => actor.send({ type: 'listing.price.change', value: e.target.value })}
          />
          {cents !== null && cents > 0 && (
            <dl className="vt-summary">
              <dt>Creator royalty</dt>
              <dd>{ctx.royaltyPercent} %</dd>
              <dt>Platform fee</dt>
              <dd>{ctx.platformFeePercent} %</dd>
              <dt>You receive</dt>
              <dd>{formatUsd(sellerNetCents(cents, ctx.royaltyPercent, ctx.platformFeePercent))}</dd>
            </dl>
          )}
          {busy && (
            <p className="vt-muted" aria-live="polite">
              {state === 'signing' ? 'Approve the listing in your wallet…' : 'Saving your listing…'}
            </p>
          )}
          {ctx.error && !fieldError && <ErrorText error={ctx.error} />}
        </form>
      )}
    </Modal>
  );
}

export function RemoveListingDialog({
  actor,
  onDone,
}: PanelProps<ActorRefFrom<typeof removeListingMachine>>) {
  const state = useSelector(actor, (s) => s.value as string);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const error = useSelector(actor, (s) => s.context.error);
  const close = () => (state === 'removed' ? onDone(true) : actor.send({ type: 'listing.close' }));
  if (state === 'closed') {
    queueMicrotask(() => onDone(false));
    return null;
  }
  return (
    <Modal
      open
      size="sm"
      onClose={busy ? () => {} : close}
      showCloseButton={!busy}
      title={state === 'removed' ? 'Removed from the marketplace' : 'Remove listing'}
      footer={
        state === 'removed' ? (
          <Button onClick={() => onDone(true)}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={close} disabled={busy}>
              {state === 'recordFailed' ? 'Close' : closeLabel(busy)}
            </Button>
            {state === 'recordFailed' ? (
              <Button onClick={() => actor.send({ type: 'listing.retry' })}>Try again</Button>
            ) : (
              <Button
                variant="danger"
                loading={busy}
                onClick={() => actor.send({ type: 'listing.remove.confirm' })}
              >
                Remove listing
              </Button>
            )}
          </>
        )
      }
    >
      {state === 'removed' ? (
        <p>Your collectible is no longer for sale.</p>
      ) : (
        <p>Take this collectible off the marketplace? You can list it again at any time.</p>
      )}
      {busy && (
        <p className="vt-muted" aria-live="polite">
          {state === 'signing' ? 'Approve the removal in your wallet…' : 'Saving…'}
        </p>
      )}
      <ErrorText error={error} />
    </Modal>
  );
}

export function BuyListingDialog({ actor, onDone }: PanelProps<ActorRefFrom<typeof buyListingMachine>>) {
  const state = useSelector(actor, (s) => s.value as string);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const ctx = useSelector(actor, (s) => s.context);
  const topup = useSelector(actor, connectTopupOffer, (a, b) => a.shown === b.shown && a.label === b.label);

  const close = () => (state === 'purchased' ? onDone(true) : actor.send({ type: 'buy.close' }));
  if (state === 'closed') {
    queueMicrotask(() => onDone(false));
    return null;
  }
  const price = formatUsd(ctx.listing.price);
  return (
    <Modal
      open
      onClose={busy ? () => {} : close}
      showCloseButton={!busy}
      title={state === 'purchased' ? 'Purchase Complete' : `Buy for ${price}`}
      footer={
        state === 'purchased' ? (
          <Link className="vt-button vt-button--primary" to="/profile/collection">
            View my collection
          </Link>
        ) : state === 'confirming' || state === 'signing' || state === 'recording' ? (
          <>
            <Button variant="secondary" onClick={close} disabled={busy}>
              {closeLabel(busy)}
            </Button>
            <Button loading={busy} onClick={() => actor.send({ type: 'buy.submit' })}>
              Pay {price}
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={close} disabled={busy}>
              Close
            </Button>
            {state !== 'checkingBalance' && (
              <Button
                variant={topup.shown ? 'secondary' : 'primary'}
                disabled={busy}
                onClick={() => actor.send({ type: 'buy.retry' })}
              >
                {['insufficientFunds', 'toppingUp', 'redirect'].includes(state)
                  ? 'Check balance again'
                  : 'Try again'}
              </Button>
            )}
            {topup.shown && (
              <Button loading={busy} onClick={() => actor.send({ type: 'buy.topup' })}>
                {topup.label}
              </Button>
            )}
          </>
        )
      }
    >
      {state === 'checkingBalance' && (
        <p className="vt-muted" aria-live="polite">
          Checking your balance…
        </p>
      )}
      {ctx.balance !== null && state !== 'purchased' && (
        <dl className="vt-summary">
          <dt>Price</dt>
          <dd>{price}</dd>
          <dt>Your balance</dt>
          <dd>{formatUsd(ctx.balance)}</dd>
        </dl>
      )}
      {['insufficientFunds', 'toppingUp', 'redirect'].includes(state) && (
        <>
          <ErrorText error={ctx.error} />
          <p>
            Add at least {formatUsd(ctx.listing.price - (ctx.balance ?? 0))} to your balance, then check
            again.
          </p>
        </>
      )}
      {['confirming', 'signing', 'recording'].includes(state) && (
        <label className="vt-check">
          <input
            type="checkbox"
            checked={ctx.acknowledged}
            disabled={busy}
            onChange={(e) => actor.send({ type: 'buy.acknowledge', value: e.target.checked })}
          />
          <span>
            I agree to the purchase agreement and the <Link to={routePaths.TermsPage}>Terms of Service</Link>.
          </span>
        </label>
      )}
      {(state === 'toppingUp' || state === 'redirect') && (
        <p className="vt-muted" aria-live="polite">
          Opening the crypto payment page…
        </p>
      )}
      {busy && ['signing', 'recording'].includes(state) && (
        <p className="vt-muted" aria-live="polite">
          {state === 'signing' ? 'Approve the payment in your wallet…' : 'Confirming your purchase…'}
        </p>
      )}
      {state === 'purchased' && <p>The collectible is in your wallet. It shows in your collection now.</p>}
      {state === 'recordFailed' && (
        <p>The collectible is in your wallet. We could not save the purchase just now; try again.</p>
      )}
      {!['insufficientFunds', 'toppingUp', 'redirect'].includes(state) && <ErrorText error={ctx.error} />}
    </Modal>
  );
}

export function TransferDialog({ actor, onDone }: PanelProps<ActorRefFrom<typeof transferNftsMachine>>) {
  const state = useSelector(actor, (s) => s.value as string);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const ctx = useSelector(actor, (s) => s.context);
  const close = () => (state === 'transferred' ? onDone(true) : actor.send({ type: 'transfer.close' }));
  if (state === 'closed') {
    queueMicrotask(() => onDone(false));
    return null;
  }
  const count = ctx.ids.length;
  const what = count === 1 ? 'this collectible' : `${count} collectibles`;
  const fieldError = ctx.error?.field === 'recipient' ? errorMessage(ctx.error) : undefined;
  return (
    <Modal
      open
      onClose={busy ? () => {} : close}
      showCloseButton={!busy}
      title={state === 'transferred' ? 'Transfer sent' : `Transfer ${what}`}
      footer={
        state === 'transferred' ? (
          <Button onClick={() => onDone(true)}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={close} disabled={busy}>
              {closeLabel(busy)}
            </Button>
            <Button type="submit" form="transfer-nfts" loading={busy}>
              Transfer
            </Button>
          </>
        )
      }
    >
      {state === 'transferred' ? (
        <p>
          Sent to <code>{ctx.recipient.trim().toLowerCase()}</code>. It leaves your collection in a few
          moments.
        </p>
      ) : (
        <form
          id="transfer-nfts"
          className="vt-stack"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'transfer.submit' });
          }}
        >
          <p>Transfers are final: the recipient's wallet must hold a collection, and nobody can undo them.</p>
          <TextInput
            label="Recipient's Flow address"
            placeholder="0x…"
            autoComplete="off"
            spellCheck={false}
            value={ctx.recipient}
            readOnly={busy}
            error={fieldError}
            onChange={(e) => actor.send({ type: 'transfer.recipient.change', value: e.target.value })}
          />
          {busy && (
            <p className="vt-muted" aria-live="polite">
              Approve the transfer in your wallet…
            </p>
          )}
          {ctx.error && !fieldError && <ErrorText error={ctx.error} />}
        </form>
      )}
    </Modal>
  );
}
