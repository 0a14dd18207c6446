import { getRouteApi, Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  type CryptoCanceledEvent,
  type CryptoCanceledInput,
  connectCryptoCanceled,
  type cryptoCanceledMachine,
} from '../../../machines/cryptoCanceled';
import { routePaths } from '../../domain/routes';
import { useApp } from '../AppContext';
import { Button, Spinner } from '../components';
import '../checkout/card.css';
import './purchase.css';

const canceledRoute = getRouteApi('/coinbasecanceled/$id');

/** /coinbasecanceled/{chargeId}: where the crypto provider sends a buyer who canceled the payment. */
export function CryptoCanceledPage() {
  const { id } = canceledRoute.useParams();
  // Another charge's link is another page.
  return <CryptoCanceled key={id} chargeId={id} />;
}

function CryptoCanceled(input: CryptoCanceledInput) {
  const { inspect } = useApp();
  const machine = canceledRoute.useLoaderData({ select: (d) => d.machine });
  const [start] = useState(() => input);
  const actor = useActorRef(machine, { input: start, inspect });
  return <CryptoCanceledView actor={actor} />;
}

export function CryptoCanceledView({ actor }: { actor: ActorRefFrom<typeof cryptoCanceledMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectCryptoCanceled(snapshot, (event: CryptoCanceledEvent) => actor.send(event));
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
      {view.panel === 'charge' && (
        <section className="vt-card vt-stack" aria-label="Your purchase">
          <dl className="vt-dl">
            <dt>Item</dt>
            <dd>{view.itemTitle}</dd>
            <dt>Amount</dt>
            <dd>{view.amount}</dd>
            {view.paid && (
              <>
                <dt>Paid</dt>
                <dd>{view.paid}</dd>
              </>
            )}
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
