import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { connectSaleEmailsOff, type saleEmailsOffMachine } from '../../../machines/saleEmailsOff';
import { useApp } from '../AppContext';
import { Button } from '../components';

const unsubscribeRoute = getRouteApi('/unsubscribe');

/** /unsubscribe?t=…: the link in every sale email that turns sale emails off. */
export function UnsubscribePage() {
  const { inspect } = useApp();
  const machine = unsubscribeRoute.useLoaderData({ select: (d) => d.machine });
  const search = unsubscribeRoute.useSearch();
  const navigate = useNavigate();
  const [input] = useState(() => ({ token: search.t ?? null }));
  const actor = useActorRef(machine, { input, inspect });
  // The token stays in the machine only: the address bar and the history forget it.
  useEffect(() => {
    if (input.token) navigate({ to: '/unsubscribe', search: {}, replace: true });
  }, [input.token, navigate]);
  return <UnsubscribeView actor={actor} />;
}

export function UnsubscribeView({ actor }: { actor: ActorRefFrom<typeof saleEmailsOffMachine> }) {
  const view = connectSaleEmailsOff(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  return (
    <article className="vt-page vt-stack" aria-busy={view.busy || undefined}>
      <h1 className="vt-page__title">{view.title}</h1>
      {view.text && (
        <p
          className={view.panel === 'failed' ? 'vt-form-error' : 'vt-lead'}
          role={view.panel === 'failed' ? 'alert' : undefined}
        >
          {view.text}
        </p>
      )}
      <div className="vt-row">
        {view.canRetry && <Button {...view.getRetryButtonProps()}>Try again</Button>}
        {view.panel !== 'working' && (
          <Link className="vt-button vt-button--secondary" to="/dashboard/notifications">
            Notifications
          </Link>
        )}
      </div>
    </article>
  );
}
