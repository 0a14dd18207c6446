import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useContext, useEffect, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { kindFilters, kindsOf, toggleKind } from '#domain/activityFilters';
import type { ActivitySearch } from '#domain/activitySearch';
import type { ActivityFilters } from '#domain/schemas/activity';
import {
  type ActivityPartyView,
  type activityFeedMachine,
  connectActivityFeed,
} from '../../../machines/activityFeed';
import { AppContext } from '../AppContext';
import { Button } from '../components';
import { useFlowActor } from '../useFlowActor';
import './activity.css';

type Machine = typeof activityFeedMachine;

/**
 * An Activity tab: the kind filter (kept in the URL search by the page) and the feed of the page's
 * filters (a storefront, an item, an NFT, a user, or the whole marketplace), newest first.
 */
export function ActivityTab({
  filters,
  search,
  onSearch,
}: {
  filters: Omit<ActivityFilters, 'kinds'>;
  search: ActivitySearch;
  onSearch: (next: ActivitySearch) => void;
}) {
  const app = useContext(AppContext);
  const [machine, setMachine] = useState<Machine | null>(null);
  useEffect(() => {
    void app?.flows.activityFeed().then(setMachine);
  }, [app]);
  const buttons = kindFilters(search);
  const kinds = kindsOf(search);
  return (
    <section className="vt-activity">
      <fieldset className="vt-activity__filters">
        <legend className="vt-visually-hidden">Kinds</legend>
        <button
          type="button"
          className="vt-chip"
          aria-pressed={buttons.all.pressed}
          onClick={() => onSearch({ ...search, kinds: undefined })}
        >
          {buttons.all.label}
        </button>
        {buttons.kinds.map((b) => (
          <button
            key={b.kind}
            type="button"
            className="vt-chip"
            aria-pressed={b.pressed}
            onClick={() => onSearch(toggleKind(search, b.kind))}
          >
            {b.label}
          </button>
        ))}
      </fieldset>
      {machine && (
        <Feed
          key={JSON.stringify([filters, kinds])}
          machine={machine}
          filters={{ ...filters, ...(kinds.length ? { kinds } : {}) }}
        />
      )}
    </section>
  );
}

function Feed({ machine, filters }: { machine: Machine; filters: ActivityFilters }) {
  const actor = useFlowActor(machine, { filters }, () => {});
  return <ActivityFeedView actor={actor} />;
}

function Party({ party }: { party: ActivityPartyView }) {
  return party.userId ? (
    <Link to="/marketplace/activity" search={{ userId: party.userId }}>
      {party.label}
    </Link>
  ) : (
    <span>{party.label}</span>
  );
}

/** The feed's entries, "Show more" while more follow, and the error with "Try again". */
export function ActivityFeedView({ actor }: { actor: ActorRefFrom<Machine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectActivityFeed(snapshot, actor.send);
  return (
    <div className="vt-stack" aria-busy={view.busy}>
      {view.empty && <p className="vt-muted">{view.emptyText}</p>}
      {view.entries.length > 0 && (
        <ol className="vt-activity__list" aria-label="Activity">
          {view.entries.map((e) => (
            <li key={e.id} className="vt-activity__entry">
              <span className="vt-activity__kind">{e.kind}</span>
              {e.imageUrl ? (
                <img className="vt-activity__image" src={e.imageUrl} alt="" width={48} height={48} />
              ) : (
                <span className="vt-activity__image" />
              )}
              <span className="vt-activity__item">
                {e.itemId ? (
                  <Link to="/nft/$id" params={{ id: e.itemId }}>
                    {e.title}
                  </Link>
                ) : (
                  e.title
                )}
                {e.edition && <span className="vt-muted"> {e.edition}</span>}
              </span>
              <span className="vt-activity__price">{e.price}</span>
              <span className="vt-activity__parties">
                {e.from && (
                  <>
                    from <Party party={e.from} />{' '}
                  </>
                )}
                {e.to && (
                  <>
                    to <Party party={e.to} />
                  </>
                )}
              </span>
              <time className="vt-activity__time vt-muted" dateTime={e.at}>
                {e.timeAgo}
              </time>
            </li>
          ))}
        </ol>
      )}
      {view.error && (
        <div role="alert" className="vt-stack">
          <p>{view.error}</p>
          <Button {...view.getRetryButtonProps()}>Try again</Button>
        </div>
      )}
      {view.showMore && <Button {...view.getMoreButtonProps()}>Show more</Button>}
    </div>
  );
}
