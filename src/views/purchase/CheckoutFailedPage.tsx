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
import { useApp } from '../AppContext';
import '../checkout/card.css';
import './purchase.css';
import { OrderTimeline, OutcomeReason, WayBack } from './Outcome';

const failedRoute = getRouteApi('/_authenticated/checkoutcomfailed/$reference');

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
      <OutcomeReason
        loading={view.panel === 'loading'}
        error={view.panel === 'error'}
        reason={view.reason}
        canRetry={view.canRetry}
        retry={view.retry}
      />
      {view.panel === 'order' && (
        <section className="vt-card vt-stack" aria-label="Your order">
          <dl className="vt-dl">
            <dt>Item</dt>
            <dd>{view.itemTitle}</dd>
            <dt>Amount</dt>
            <dd>{view.amount}</dd>
          </dl>
          <OrderTimeline timeline={view.timeline} />
        </section>
      )}
      {view.panel !== 'loading' && (
        <WayBack itemId={view.itemId}>
          {view.offerTopUp && (
            <Link className="vt-button vt-button--secondary" to="/settings/wallet">
              Add funds with crypto
            </Link>
          )}
        </WayBack>
      )}
    </article>
  );
}
