import { getRouteApi } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { connectSaleNotices, type saleNoticesMachine } from '../../../machines/saleNotices';
import { useApp } from '../AppContext';
import { Button, Spinner } from '../components';

const route = getRouteApi('/_authenticated/dashboard/notifications');

/** Dashboard → Notifications: the notices (sold, saved items') and the two email switches. */
export function NotificationsPanel() {
  const { machine } = route.useLoaderData();
  const { session, inspect } = useApp();
  const saleEmails = useSelector(session, (s) => s.context.user?.saleEmails ?? true);
  const favoriteEmails = useSelector(session, (s) => s.context.user?.favoriteEmails ?? true);
  const actor = useActorRef(machine, { input: { saleEmails, favoriteEmails }, inspect });
  return <NotificationsView actor={actor} />;
}

export function NotificationsView({ actor }: { actor: ActorRefFrom<typeof saleNoticesMachine> }) {
  const view = connectSaleNotices(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  const { onChange: toggleEmails, ...emails } = view.getEmailsToggleProps();
  const { onChange: toggleFavoriteEmails, ...favoriteEmails } = view.getFavoriteEmailsToggleProps();
  return (
    <section className="vt-stack" aria-labelledby="notices-title" aria-busy={view.busy || undefined}>
      <header className="vt-row">
        <h1 id="notices-title" className="vt-page__title">
          Notifications{view.unread > 0 ? ` (${view.unread} new)` : ''}
        </h1>
        <Button variant="secondary" {...view.getMarkReadButtonProps()}>
          Mark all read
        </Button>
      </header>
      <label className="vt-check">
        <input type="checkbox" {...emails} onChange={(e) => toggleEmails(e.target.checked)} /> Email me when
        one of my items sells
      </label>
      <label className="vt-check">
        <input type="checkbox" {...favoriteEmails} onChange={(e) => toggleFavoriteEmails(e.target.checked)} />{' '}
        Email me when an item I saved drops in price or goes on sale
      </label>
      {view.error && (
        <p className="vt-form-error" role="alert">
          {view.error}
        </p>
      )}
      {view.failed ? (
        view.canRetry && <Button {...view.getRetryButtonProps()}>Try again</Button>
      ) : view.loading ? (
        <Spinner label="Loading notifications" />
      ) : view.rows.length === 0 ? (
        <p className="vt-muted">No notifications yet. When one of your items sells, you will see it here.</p>
      ) : (
        <ul className="vt-notices" aria-label="Notifications">
          {view.rows.map((row) => (
            <li key={row.id} className={`vt-card vt-notice${row.unread ? ' is-unread' : ''}`}>
              <strong>{row.text}</strong>
              {row.unread && <span className="vt-badge">New</span>}
              <span>{row.detail}</span>
              <span className="vt-muted">{row.when}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
