import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { connectLinkAction, type LinkAction, type linkActionMachine } from '../../../machines/linkAction';
import { Button } from '../components';
import { useFlowActor } from '../useFlowActor';

/** Each action's page: the route that opens it. */
const routes = {
  confirmEmail: getRouteApi('/confirm-email'),
  saleEmailsOff: getRouteApi('/unsubscribe'),
} as const;
const paths = { confirmEmail: '/confirm-email', saleEmailsOff: '/unsubscribe' } as const;
const ignoreEnd = () => {};

/** /confirm-email?t=…: the link sent to a new email address. */
export const ConfirmEmailPage = () => <LinkActionPage action="confirmEmail" />;
/** /unsubscribe?t=…: the link in every sale email that turns sale emails off. */
export const UnsubscribePage = () => <LinkActionPage action="saleEmailsOff" />;

/** The page an emailed link opens: its action runs on the link's token (query `t`). */
function LinkActionPage({ action }: { action: LinkAction }) {
  const route = routes[action];
  const machine = route.useLoaderData({ select: (d) => d.machine });
  const search = route.useSearch();
  const navigate = useNavigate();
  const [input] = useState(() => ({ action, token: search.t ?? null }));
  // The page shows how it ended; nothing follows.
  const actor = useFlowActor(machine, input, ignoreEnd);
  // The token stays in the machine only: the address bar and the history forget it.
  useEffect(() => {
    if (input.token) navigate({ to: paths[action], search: {}, replace: true });
  }, [input.token, action, navigate]);
  return <LinkActionView actor={actor} />;
}

export function LinkActionView({ actor }: { actor: ActorRefFrom<typeof linkActionMachine> }) {
  const view = connectLinkAction(
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
          <Link className="vt-button vt-button--secondary" to={view.next.to}>
            {view.next.label}
          </Link>
        )}
      </div>
    </article>
  );
}
