import { getRouteApi, Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { adminListOrder, adminTitles } from '#domain/admin';
import { errorMessage } from '#domain/errors';
import { type adminListMachine, connectAdminList } from '../../../machines/adminList';
import { useApp } from '../AppContext';
import { Button, Pager, Spinner } from '../components';
import '../payouts/table.css';
import './admin.css';

const route = getRouteApi('/_authenticated/admin/$list');

/** The back office (admins only): one tab per list; the list's machine comes with the route. */
export function AdminPage() {
  const { machine, list, admin } = route.useLoaderData();
  const { inspect } = useApp();
  if (!admin)
    return (
      <section className="vt-page" aria-labelledby="admin-title">
        <h1 id="admin-title" className="vt-page__title">
          Back office
        </h1>
        <p role="alert">{errorMessage({ code: 'FORBIDDEN' })}: this area is for administrators.</p>
      </section>
    );
  return <AdminListScreen key={list} machine={machine} list={list} inspect={inspect} />;
}

function AdminListScreen({
  machine,
  list,
  inspect,
}: {
  machine: typeof adminListMachine;
  list: (typeof adminListOrder)[number];
  inspect: ReturnType<typeof useApp>['inspect'];
}) {
  const actor = useActorRef(machine, { input: { list }, inspect });
  return (
    <section className="vt-page vt-admin" aria-labelledby="admin-title">
      <h1 id="admin-title" className="vt-page__title">
        Back office
      </h1>
      <nav className="vt-admin__tabs" aria-label="Lists">
        {adminListOrder.map((name) => (
          <Link key={name} to="/admin/$list" params={{ list: name }} activeProps={{ 'aria-current': 'page' }}>
            {adminTitles[name]}
          </Link>
        ))}
      </nav>
      <AdminListView actor={actor} />
    </section>
  );
}

export function AdminListView({ actor }: { actor: ActorRefFrom<typeof adminListMachine> }) {
  const view = connectAdminList(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  return (
    <div className="vt-card vt-admin__list" aria-busy={view.busy || undefined}>
      <header className="vt-admin__header">
        <h2>{view.title}</h2>
        <search>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              const text = new FormData(e.currentTarget).get('searchText');
              view.search(typeof text === 'string' ? text : '');
            }}
          >
            <label>
              <span className="vt-visually-hidden">Search {view.title.toLowerCase()}</span>
              <input
                key={view.searchText}
                name="searchText"
                type="search"
                defaultValue={view.searchText}
                placeholder="Search"
              />
            </label>
            <Button type="submit" variant="secondary" size="sm">
              Search
            </Button>
          </form>
        </search>
        {view.statuses.length > 0 && (
          <label className="vt-admin__status">
            Status{' '}
            <select
              value={view.status}
              disabled={!view.canAct}
              onChange={(e) => view.setStatus(e.target.value)}
            >
              <option value="">All</option>
              {view.statuses.map((status) => (
                <option key={status.value} value={status.value}>
                  {status.label}
                </option>
              ))}
            </select>
          </label>
        )}
      </header>
      {view.failed ? (
        <div role="alert" className="vt-empty">
          <p>{view.error}</p>
          {view.canRetry && <Button {...view.getRetryButtonProps()}>Try again</Button>}
        </div>
      ) : (
        <>
          {view.error && (
            <p className="vt-form-error" role="alert">
              {view.error}
            </p>
          )}
          <div className="vt-admin__scroll">
            <table className="vt-table">
              <caption className="vt-visually-hidden">{view.title}</caption>
              <thead>
                <tr>
                  {view.columns.map((c) => (
                    <th key={c.key} scope="col">
                      {c.label}
                    </th>
                  ))}
                  <th scope="col" className="vt-table__actions">
                    <span className="vt-visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {view.rows.map((row) => (
                  <tr key={row.id}>
                    {row.cells.map((cell, i) => (
                      <td key={view.columns[i]!.key}>{cell}</td>
                    ))}
                    <td className="vt-table__actions">
                      <div className="vt-admin__actions">
                        {row.actions.map((action) => (
                          <Button
                            key={action.label}
                            size="sm"
                            variant={action.danger ? 'danger' : 'secondary'}
                            {...view.getActionButtonProps(row.id, action)}
                            loading={row.acting === action.label}
                          >
                            {action.label}
                          </Button>
                        ))}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {view.rows.length === 0 &&
              (view.busy ? (
                <Spinner label={`Loading ${view.title.toLowerCase()}`} />
              ) : (
                <p className="vt-muted">Nothing here.</p>
              ))}
          </div>
          <Pager
            page={view.page}
            pages={view.pages}
            summary={` · ${view.total.toLocaleString('en-US')} in all`}
            canPrevious={view.canPrevious}
            canNext={view.canNext}
            onPrevious={view.previousPage}
            onNext={view.nextPage}
          />
        </>
      )}
    </div>
  );
}
