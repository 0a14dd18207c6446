import { useActorRef, useSelector } from '@xstate/react';
import { useContext, useEffect, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { connectFavorite, type FavoriteInput, type favoriteMachine } from '../../../machines/favorite';
import { AppContext } from '../AppContext';
import { Icon } from '../components/icons';
import './favorite.css';

const HeartIcon = ({ filled }: { filled: boolean }) => (
  <Icon size={20} fill={filled ? 'currentColor' : 'none'}>
    <path d="M12 20.5s-7.5-4.6-9.4-9.2C1.2 7.9 3.4 4.5 6.9 4.5c2 0 3.6 1.1 5.1 3 1.5-1.9 3.1-3 5.1-3 3.5 0 5.7 3.4 4.3 6.8-1.9 4.6-9.4 9.2-9.4 9.2z" />
  </Icon>
);

/**
 * The heart of an item (a blueprint) on its card and its page. For a signed-in user it saves the
 * item to their favorites or removes it (machines/favorite.ts), starting from the favorite ids the
 * app reads once; for a visitor a press opens the sign-in prompt, the favorite flow loading only then.
 */
export function FavoriteHeart({ blueprintId }: { blueprintId: string }) {
  const app = useContext(AppContext);
  const userId = useSelector(app?.session, (s) => s?.context.user?.id ?? null) ?? null;
  const [ready, setReady] = useState<{
    machine: typeof favoriteMachine;
    input: FavoriteInput;
    userId: string | null;
  } | null>(null);
  const load = () => {
    if (!app) return;
    void Promise.all([app.flows.favorite(), app.flows.favoriteIds()])
      .then(([machine, ids]) => {
        const input = { blueprintId, favorited: ids.has(blueprintId), signedIn: userId !== null };
        setReady({ machine, input, userId });
      })
      .catch(() => {});
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per item and user.
  useEffect(() => {
    if (userId) load();
  }, [blueprintId, userId]);
  if (!app) return null;
  if (!ready || ready.userId !== userId)
    return (
      <button
        type="button"
        className="vt-heart"
        aria-pressed={false}
        aria-label="Save to favorites"
        disabled={userId !== null}
        onClick={load}
      >
        <HeartIcon filled={false} />
      </button>
    );
  return (
    <HeartButton
      key={`${blueprintId}:${ready.userId}`}
      machine={ready.machine}
      input={ready.input}
      pressAtStart={ready.userId === null}
    />
  );
}

function HeartButton({
  machine,
  input,
  pressAtStart,
}: {
  machine: typeof favoriteMachine;
  input: FavoriteInput;
  pressAtStart: boolean;
}) {
  const app = useContext(AppContext);
  const actor = useActorRef(machine, { input, inspect: app?.inspect });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a visitor's first press, once.
  useEffect(() => {
    if (pressAtStart) actor.send({ type: 'favorite.toggle' });
  }, []);
  return <HeartView actor={actor} />;
}

export function HeartView({ actor }: { actor: ActorRefFrom<typeof favoriteMachine> }) {
  const view = connectFavorite(
    useSelector(actor, (s) => s),
    (event) => actor.send(event),
  );
  return (
    <span className="vt-heart-wrap">
      <button className={`vt-heart${view.favorited ? ' is-on' : ''}`} {...view.getHeartButtonProps()}>
        <HeartIcon filled={view.favorited} />
      </button>
      {view.error && (
        <span className="vt-heart__error" role="alert">
          {view.error}
        </span>
      )}
    </span>
  );
}
