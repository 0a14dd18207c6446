import { getRouteApi } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  type CryptoCanceledEvent,
  type CryptoCanceledInput,
  connectCryptoCanceled,
  type cryptoCanceledMachine,
} from '../../../machines/cryptoCanceled';
import { useApp } from '../AppContext';
import '../checkout/card.css';
import './purchase.css';
import { OrderTimeline, OutcomeReason, WayBack } from './Outcome';

const canceledRoute = getRouteApi('/_authenticated/coinbasecanceled/$id');

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
      <OutcomeReason
        loading={view.panel === 'loading'}
        error={view.panel === 'error'}
        reason={view.reason}
        canRetry={view.canRetry}
        retry={view.retry}
      />
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
          <OrderTimeline timeline={view.timeline} />
        </section>
      )}
      {view.panel !== 'loading' && <WayBack itemId={view.itemId} />}
    </article>
  );
}
