import { getRouteApi, Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  type CheckoutFailedEvent,
  type CheckoutFailedInput,
  type checkoutFailedMachine,
  connectCheckoutFailed,
} from '../../../machines/checkoutFailed';
import { routePaths } from '../../domain/routes';
import { useApp } from '../AppContext';
import { Button, Spinner } from '../components';
import '../checkout/card.css';
import './purchase.css';

const failedRoute = getRouteApi('/checkoutcomfailed/$reference');

/**
 * /checkoutcomfailed/{orderId}[?cko-session-id]: where a card payment that failed ends, from the
 * checkout after a decline or from the card provider after 3-D Secure.
 */
export function CheckoutFailedPage() {
  const { reference } = failedRoute.useParams();
  const search = failedRoute.useSearch();
  // Another order's link is another page.
  return (
    <CheckoutFailed key={reference} orderId={reference} ckoSessionId={search['cko-session-id'] ?? null} />
  );
}

function CheckoutFailed(input: CheckoutFailedInput) {
  const { inspect } = useApp();
  const machine = failedRoute.useLoaderData({ select: (d) => d.machine });
  const [start] = useState(() => input);
  const actor = useActorRef(machine, { input: start, inspect });
  return <CheckoutFailedView actor={actor} />;
}

export function CheckoutFailedView({ actor }: { actor: ActorRefFrom<typeof checkoutFailedMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectCheckoutFailed(snapshot, (event: CheckoutFailedEvent) => actor.send(event));
  return (
    <article className="vt-page vt-purchase vt-stack" aria-busy={view.busy || undefined}>
      <h1 className="vt-page__title">{view.title}</h1>
      {view.panel === 'loading' ? (
        <>
          <Spinner size="lg" label={view.reason} />
          <p className="vt-lead" aria-hidden="true">
            {view.reason}
          </p>
        </>
      ) : (
        <p className={view.panel === 'error' ? 'vt-form-error' : 'vt-lead'} role="alert">
          {view.reason}
        </p>
      )}
      {view.canRetry && (
        <div>
          <Button onClick={view.retry}>Try again</Button>
        </div>
      )}
      {view.panel === 'order' && (
        <section className="vt-card vt-stack" aria-label="Your order">
          <dl className="vt-dl">
            <dt>Item</dt>
            <dd>{view.itemTitle}</dd>
            <dt>Amount</dt>
            <dd>{view.amount}</dd>
          </dl>
          {view.timeline.length > 0 && (
            <>
              <h2>Timeline</h2>
              <ol className="vt-checkout-failed__timeline" aria-label="Order timeline">
                {view.timeline.map((entry) => (
                  <li key={`${entry.label}-${entry.dateTime}`}>
                    <strong>{entry.label}</strong>
                    {entry.detail && <span>{entry.detail}</span>}
                    <time dateTime={entry.dateTime}>{entry.time}</time>
                  </li>
                ))}
              </ol>
            </>
          )}
        </section>
      )}
      {view.panel !== 'loading' && (
        <div className="vt-actions">
          {view.offerTopUp && (
            <Link className="vt-button vt-button--secondary" to="/settings/wallet">
              Add funds with crypto
            </Link>
          )}
          {view.itemId && (
            <Link className="vt-button vt-button--primary" to="/nft/$id" params={{ id: view.itemId }}>
              Back to the item
            </Link>
          )}
          <Link className="vt-button vt-button--secondary" to={routePaths.Marketplace}>
            Back to marketplace
          </Link>
        </div>
      )}
    </article>
  );
}
