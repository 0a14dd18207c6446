import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CheckoutInput, CheckoutOutput, checkoutMachine } from '../../../machines/checkout';
import { type CheckoutView, connectCheckout } from '../../../machines/checkoutView';
import { useApp } from '../AppContext';
import { Button, Dropdown, Modal, Spinner } from '../components';
import { tabbables } from '../components/focus';
import { BuyListingDialog } from '../nft/ListingPanels';
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
  const { inspect } = useApp();
  const actor = useActorRef(machine, { input, inspect });
  const done = useSelector(actor, (s) => s.status === 'done');
  const latestOnDone = useRef(onDone);
  useEffect(() => {
    latestOnDone.current = onDone;
  });
  useEffect(() => {
    if (done) latestOnDone.current(actor.getSnapshot().output ?? null);
  }, [done, actor]);
  return <CheckoutDialog actor={actor} />;
}

/**
 * The checkout's panels in one dialog, named by its heading: what connectCheckout describes, and
 * the card rail (CardPanel) and the resale purchase (its own dialog) while they run.
 */
export function CheckoutDialog({ actor }: { actor: CheckoutActor }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectCheckout(snapshot);
  const send = actor.send;
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
  if (view.panel === 'buyingListing') {
    const child = snapshot.children.buyListing;
    // The resale purchase reports through its output; the checkout goes on from there.
    return child ? <BuyListingDialog actor={child} onDone={() => {}} /> : null;
  }
  const card = snapshot.children.cardPayment;
  const crypto = snapshot.children.cryptoPayment;
  const balance = snapshot.children.balancePayment;
  const onramp = snapshot.children.onrampPayment;
  const mobileWallet = snapshot.children.walletPayment;
  const token = snapshot.children.tokenCharge;
  const close = () => send({ type: 'checkout.close' });

  return (
    <Modal
      open
      size={
        ['creditCard', 'crypto', 'balance', 'onramp', 'token', 'wallet'].includes(view.panel) ? 'lg' : 'md'
      }
      title={view.title}
      onClose={view.canClose ? close : () => {}}
      showCloseButton={view.canClose}
      footer={<Footer view={view} send={send} close={close} />}
    >
      <div ref={bodyRef} className="vt-checkout" tabIndex={-1} aria-busy={view.busy || undefined}>
        {view.text && <p className="vt-checkout__text">{view.text}</p>}
        {view.panel === 'selectEdition' && <Editions view={view} send={send} />}
        {view.panel === 'selectPaymentMethod' && (
          <ul className="vt-checkout__methods" aria-label="Payment methods">
            {view.methods.map((m) => (
              <li key={m.method}>
                <button
                  type="button"
                  className="vt-checkout__method"
                  onClick={() => send({ type: 'checkout.method.select', method: m.method })}
                >
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
        {view.panel === 'creditCard' && card && <CardPanel actor={card} />}
        {view.panel === 'crypto' && crypto && <CryptoPanel actor={crypto} />}
        {view.panel === 'balance' && balance && <BalancePanel actor={balance} />}
        {view.panel === 'onramp' && onramp && <OnrampPanel actor={onramp} />}
        {view.panel === 'token' && token && <TokenPanel actor={token} />}
        {view.panel === 'wallet' && mobileWallet && <WalletPanel actor={mobileWallet} />}
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

type Send = CheckoutActor['send'];

function Editions({ view, send }: { view: CheckoutView; send: Send }) {
  return (
    <>
      <Dropdown
        trigger={view.sort.label}
        items={view.sort.options.map((o) => ({ id: o.value, label: o.label }))}
        onSelect={(id) => {
          const event = view.sort.events[id];
          if (event) send(event);
        }}
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
                <Button
                  size="sm"
                  aria-label={row.buyLabel}
                  onClick={() => send({ type: 'checkout.edition.select', listingId: row.listingId })}
                >
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
function Footer({ view, send, close }: { view: CheckoutView; send: Send; close: () => void }) {
  if (
    ['creditCard', 'crypto', 'balance', 'onramp', 'token', 'wallet', 'redirecting', 'loading'].includes(
      view.panel,
    )
  )
    return null;
  const { action, pending } = view;
  return (
    <>
      {view.canBack && (
        <Button variant="secondary" onClick={() => send({ type: 'checkout.back' })}>
          Back
        </Button>
      )}
      {view.canClose && (view.canRetry || action || pending) && (
        <Button variant="secondary" onClick={close}>
          Close
        </Button>
      )}
      {pending && (
        <>
          <Button
            variant="secondary"
            loading={view.busy}
            disabled={!pending.canCancel}
            onClick={() => send({ type: 'checkout.charge.cancel' })}
          >
            Cancel payment
          </Button>
          <Button disabled={!pending.canResume} onClick={() => send({ type: 'checkout.charge.resume' })}>
            Resume payment
          </Button>
        </>
      )}
      {view.canRetry && <Button onClick={() => send({ type: 'checkout.retry' })}>Try again</Button>}
      {action && (
        <Button loading={view.busy} disabled={!action.enabled} onClick={() => send({ type: action.event })}>
          {action.label}
        </Button>
      )}
    </>
  );
}
