import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CheckoutInput, CheckoutOutput, checkoutMachine } from '../../../machines/checkout';
import { type CheckoutView, connectCheckout } from '../../../machines/checkoutView';
import { Button, Dropdown, Modal, Spinner } from '../components';
import { tabbables } from '../components/focus';
import { BuyListingDialog } from '../nft/ListingPanels';
import { useFlowActor } from '../useFlowActor';
import { BalancePanel } from './BalancePanel';
import { CardPanel } from './CardPanel';
import { CryptoPanel } from './CryptoPanel';
import { OnrampPanel } from './OnrampPanel';
import { TokenPanel } from './TokenPanel';
import { WalletPanel } from './WalletPanel';
import './checkout.css';

type CheckoutActor = ActorRefFrom<typeof checkoutMachine>;

/**
 * The checkout of a blueprint or pack as long as it runs: `onDone` gets its output once (a
 * purchase, a failed card order, sign-up, a redirect to 3-D Secure, or null when closed).
 */
export function Checkout({
  machine,
  input,
  onDone,
}: {
  machine: typeof checkoutMachine;
  input: CheckoutInput;
  onDone: (output: CheckoutOutput) => void;
}) {
  return <CheckoutDialog actor={useFlowActor(machine, input, onDone)} />;
}

/**
 * The checkout's panels in one dialog, named by its heading: what connectCheckout describes, and
 * the card rail (CardPanel) and the resale purchase (its own dialog) while they run.
 */
export function CheckoutDialog({ actor }: { actor: CheckoutActor }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectCheckout(snapshot, actor.send);
  const bodyRef = useRef<HTMLDivElement>(null);

  // A new panel replaces the control that had focus: focus moves to the new panel's first control.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the panel changes.
  useEffect(() => {
    const body = bodyRef.current;
    const active = document.activeElement;
    if (!body || (active !== body && body.contains(active))) return;
    const dialog = body.closest<HTMLElement>('[role="dialog"]');
    if (active !== body && active !== dialog && dialog?.contains(active)) return;
    const footer = dialog?.querySelector<HTMLElement>('.vt-modal__footer');
    (tabbables(body)[0] ?? (footer && tabbables(footer)[0]) ?? body).focus();
  }, [view.panel]);

  if (view.panel === 'done') return null;
  if (view.panel === 'buyingListing')
    // The resale purchase reports through its output; the checkout goes on from there.
    return view.listing ? <BuyListingDialog actor={view.listing} onDone={() => {}} /> : null;

  return (
    <Modal
      open
      size={view.wide ? 'lg' : 'md'}
      title={view.title}
      {...view.getDialogProps()}
      footer={<Footer view={view} />}
    >
      <div ref={bodyRef} className="vt-checkout" tabIndex={-1} aria-busy={view.busy || undefined}>
        {view.text && <p className="vt-checkout__text">{view.text}</p>}
        {view.panel === 'selectEdition' && <Editions view={view} />}
        {view.panel === 'selectPaymentMethod' && (
          <ul className="vt-checkout__methods" aria-label="Payment methods">
            {view.methods.map((m) => (
              <li key={m.method}>
                <button className="vt-checkout__method" {...view.getMethodButtonProps(m.method)}>
                  <strong>{m.label}</strong>
                  <span className="vt-muted">{m.description}</span>
                  {m.note && <span className="vt-checkout__method-note">{m.note}</span>}
                </button>
              </li>
            ))}
          </ul>
        )}
        {view.pending && (
          <dl className="vt-summary">
            <dt>Item</dt>
            <dd>{view.pending.itemTitle}</dd>
            <dt>Amount</dt>
            <dd>{view.pending.amount}</dd>
            {view.pending.card && (
              <>
                <dt>Card</dt>
                <dd>{view.pending.card}</dd>
              </>
            )}
          </dl>
        )}
        {view.rail && <Rail rail={view.rail} />}
        {view.status && (
          <div className="vt-checkout__status">
            <Spinner label={view.status} />
            <span aria-hidden="true">{view.status}</span>
          </div>
        )}
        {view.error && (
          <p className="vt-alert vt-alert--error" role="alert">
            {view.error}
          </p>
        )}
      </div>
    </Modal>
  );
}

/** The payment rail's own panel. */
function Rail({ rail }: { rail: NonNullable<CheckoutView['rail']> }) {
  switch (rail.kind) {
    case 'creditCard':
      return <CardPanel actor={rail.actor} />;
    case 'crypto':
      return <CryptoPanel actor={rail.actor} />;
    case 'balance':
      return <BalancePanel actor={rail.actor} />;
    case 'onramp':
      return <OnrampPanel actor={rail.actor} />;
    case 'token':
      return <TokenPanel actor={rail.actor} />;
    case 'wallet':
      return <WalletPanel actor={rail.actor} />;
  }
}

function Editions({ view }: { view: CheckoutView }) {
  return (
    <>
      <Dropdown
        trigger={view.sort.label}
        items={view.sort.options.map((o) => ({ id: o.value, label: o.label }))}
        onSelect={view.sortBy}
      />
      <table className="vt-checkout__editions">
        <thead>
          <tr>
            <th scope="col">Edition</th>
            <th scope="col">Price</th>
            <th scope="col">Seller</th>
            <th scope="col">
              <span className="vt-visually-hidden">Buy</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {view.editions.map((row) => (
            <tr key={row.listingId ?? 'new'}>
              <th scope="row">{row.edition}</th>
              <td>{row.price}</td>
              <td className="vt-muted">{row.seller}</td>
              <td>
                <Button size="sm" {...view.getBuyButtonProps(row)}>
                  Buy
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** The panel's actions: back, retry, the collection's action, resume or cancel a pending payment, close. */
function Footer({ view }: { view: CheckoutView }) {
  if (!view.footer) return null;
  const { action, pending } = view;
  return (
    <>
      {view.canBack && (
        <Button variant="secondary" {...view.getBackButtonProps()}>
          Back
        </Button>
      )}
      {view.canClose && (view.canRetry || action || pending) && (
        <Button variant="secondary" {...view.getCloseButtonProps()}>
          Close
        </Button>
      )}
      {pending && (
        <>
          <Button variant="secondary" {...view.getCancelButtonProps()} loading={view.busy}>
            Cancel payment
          </Button>
          <Button {...view.getResumeButtonProps()}>Resume payment</Button>
        </>
      )}
      {view.canRetry && <Button {...view.getRetryButtonProps()}>Try again</Button>}
      {action && (
        <Button {...view.getActionButtonProps()} loading={view.busy}>
          {action.label}
        </Button>
      )}
    </>
  );
}
