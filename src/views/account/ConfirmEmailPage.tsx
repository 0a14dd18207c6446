import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { connectEmailConfirmation, type emailConfirmationMachine } from '../../../machines/emailConfirmation';
import { useApp } from '../AppContext';
import { Button } from '../components';

const confirmRoute = getRouteApi('/confirm-email');

/** /confirm-email?t=…: the link sent to a new email address. */
export function ConfirmEmailPage() {
  const { inspect } = useApp();
  const machine = confirmRoute.useLoaderData({ select: (d) => d.machine });
  const search = confirmRoute.useSearch();
  const navigate = useNavigate();
  const [input] = useState(() => ({ token: search.t ?? null }));
  const actor = useActorRef(machine, { input, inspect });
  // The token stays in the machine only: the address bar and the history forget it.
  useEffect(() => {
    if (input.token) navigate({ to: '/confirm-email', search: {}, replace: true });
  }, [input.token, navigate]);
  return <ConfirmEmailView actor={actor} />;
}

export function ConfirmEmailView({ actor }: { actor: ActorRefFrom<typeof emailConfirmationMachine> }) {
  const view = connectEmailConfirmation(
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
        {view.panel !== 'confirming' && (
          <Link className="vt-button vt-button--secondary" to="/settings/account">
            Account settings
          </Link>
        )}
      </div>
    </article>
  );
}
