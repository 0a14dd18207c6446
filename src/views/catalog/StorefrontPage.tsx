import { getRouteApi, Link, Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { lazy, Suspense, useState } from 'react';
import { timings } from '#domain/constants';
import { filterToggle } from '#domain/marketFilterForm';
import { storefrontStatsBar } from '#domain/statsView';
import { connectSession } from '../../../machines/session';
import type { storefrontReportMachine } from '../../../machines/storefrontReport';
import { once } from '../../lazy';
import { useApp } from '../AppContext';
import { Dropdown } from '../components/Dropdown';
import { useFlowActor } from '../useFlowActor';
import { FilterDisclosure, PriceCategoryFilter } from './CatalogFilters';
import { ItemGrid } from './ItemCard';
import { StatsList } from './StatsList';
import { StorefrontFrame } from './StorefrontFrame';
import './catalog.css';

const route = getRouteApi('/s/$vanityUrl');

/** The report dialog and its machine load when a visitor opens it, not with the storefront. */
const loadReportDialog = once(() => import('./ReportStorefrontDialog'));
const ReportStorefrontDialog = lazy(() =>
  loadReportDialog().then((m) => ({ default: m.ReportStorefrontDialog })),
);

/**
 * A creator's public storefront (/s/{vanityUrl}): banner; sidebar with logo, name, category,
 * share (not while it is offline, which only its owner sees) and contact; collapsible About; a
 * price filter with Apply; its sales figures (floor, volume over 24 h, 7 d and all time, owners,
 * listed); the grid. Light or dark theme.
 */
export function StorefrontPage() {
  const { storefront: s, items, share, stats } = route.useLoaderData();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/s/$vanityUrl' });
  const { session, ui, flows } = useApp();
  const loggedIn = useSelector(session, (st) => connectSession(st, session.send).loggedIn);
  const [reportMachine, setReportMachine] = useState<typeof storefrontReportMachine | null>(null);
  const filtered = !!(search.min || search.max);
  const showActivity = useLocation({ select: (l) => l.pathname.endsWith('/activity') });

  const copyLink = async () => {
    if (!share) return;
    try {
      await navigator.clipboard.writeText(share.url);
      ui.send({
        type: 'ui.toast.show',
        id: 'link-copied',
        text: 'Link copied',
        duration: timings.copyToastMs,
      });
    } catch {
      ui.send({ type: 'ui.toast.show', id: 'link-copied', text: share.url, duration: timings.copyToastMs });
    }
  };
  const report = async () => {
    if (!loggedIn) return ui.send({ type: 'ui.signup.show' });
    const [machine] = await Promise.all([flows.storefrontReport(), loadReportDialog()]);
    setReportMachine(machine);
  };

  return (
    <StorefrontFrame
      storefront={s}
      side={
        <>
          <div className="vt-actions">
            {share && (
              <Dropdown
                trigger="Share"
                items={[
                  { id: 'copy', label: 'Copy link', onSelect: () => void copyLink() },
                  {
                    id: 'twitter',
                    label: 'Share on X (Twitter)',
                    href: share.links.twitter,
                    separator: true,
                  },
                  { id: 'facebook', label: 'Share on Facebook', href: share.links.facebook },
                  { id: 'telegram', label: 'Share on Telegram', href: share.links.telegram },
                  { id: 'linkedin', label: 'Share on LinkedIn', href: share.links.linkedin },
                  { id: 'email', label: 'Share by email', href: share.links.email },
                ]}
              />
            )}
            <Dropdown
              trigger="More"
              items={[
                ...(s.contactEmail
                  ? [{ id: 'contact', label: 'Contact the creator', href: `mailto:${s.contactEmail}` }]
                  : []),
                { id: 'report', label: 'Report storefront', onSelect: () => void report(), danger: true },
              ]}
            />
          </div>
          {s.contactEmail && (
            <a href={`mailto:${s.contactEmail}`} className="vt-link">
              Contact
            </a>
          )}
          <details className="vt-storefront__about" open>
            <summary>About</summary>
            <p>{s.description || 'This creator has not written an introduction yet.'}</p>
          </details>
          <FilterDisclosure toggle={filterToggle(search)}>
            {(close) => (
              <PriceCategoryFilter
                key={`${search.min}|${search.max}`}
                search={search}
                categories={false}
                onApply={({ min, max }) => {
                  close();
                  navigate({ search: { min, max } });
                }}
              />
            )}
          </FilterDisclosure>
        </>
      }
    >
      {/* One cell of the frame's grid, beside the side: the stats bar, the tabs, then the items or the activity. */}
      <div>
        {stats && (
          <StatsList stats={storefrontStatsBar(stats)} label="Sales" className="vt-storefront__stats" />
        )}
        <StorefrontTabs vanityUrl={s.vanityUrl} activity={showActivity} />
        {showActivity ? (
          <Outlet />
        ) : (
          <section aria-label="Items">
            {items.results.length > 0 ? (
              <ItemGrid items={items.results} label={`${s.name} items`} />
            ) : (
              <div className="vt-empty">
                <h2>{filtered ? 'No matching NFTs' : 'No NFTs yet'}</h2>
                <p className="vt-muted">
                  {filtered
                    ? 'Nothing in this price range. Try a wider one.'
                    : 'This storefront has nothing for sale yet.'}
                </p>
              </div>
            )}
          </section>
        )}
      </div>
      {reportMachine && (
        <Suspense fallback={null}>
          <ReportDialog
            machine={reportMachine}
            storefrontId={s.id}
            name={s.name}
            onDone={() => setReportMachine(null)}
          />
        </Suspense>
      )}
    </StorefrontFrame>
  );
}

function ReportDialog({
  machine,
  storefrontId,
  name,
  onDone,
}: {
  machine: typeof storefrontReportMachine;
  storefrontId: string;
  name: string;
  onDone: () => void;
}) {
  const actor = useFlowActor(machine, { storefrontId }, onDone);
  return <ReportStorefrontDialog actor={actor} storefrontName={name} />;
}

/** The storefront's tabs: its items and its activity. */
function StorefrontTabs({ vanityUrl, activity }: { vanityUrl: string; activity: boolean }) {
  return (
    <nav className="vt-tabs-nav" aria-label="Storefront">
      <Link to="/s/$vanityUrl" params={{ vanityUrl }} className={activity ? '' : 'is-active'}>
        Items
      </Link>
      <Link to="/s/$vanityUrl/activity" params={{ vanityUrl }} className={activity ? 'is-active' : ''}>
        Activity
      </Link>
    </nav>
  );
}
