import { useSelector } from '@xstate/react';
import { useContext, useEffect, useState } from 'react';
import type { FavoriteInput, favoriteMachine } from '../../../machines/favorite';
import { once } from '../../lazy';
import { AppContext } from '../AppContext';
import { HeartIcon } from './HeartIcon';
import './favorite.css';

/** The working heart's code (its view and view model) loads with its machine, not with the page. */
const loadHeartButton = once(() => import('./HeartButton'));

/**
 * The heart of an item (a blueprint) on its card and its page. For a signed-in user it saves the
 * item to their favorites or removes it (machines/favorite.ts), starting from the favorite ids the
 * app reads once; for a visitor a press opens the sign-in prompt, the favorite flow loading only then.
 * Until its machine has loaded it is a plain heart (a page's first load carries none of its code).
 */
export function FavoriteHeart({ blueprintId }: { blueprintId: string }) {
  const app = useContext(AppContext);
  const userId = useSelector(app?.session, (s) => s?.context.user?.id ?? null) ?? null;
  const [ready, setReady] = useState<{
    machine: typeof favoriteMachine;
    input: FavoriteInput;
    userId: string | null;
    Heart: Awaited<ReturnType<typeof loadHeartButton>>['HeartButton'];
  } | null>(null);
  const load = () => {
    if (!app) return;
    // Started inside a promise so that a flow that fails to load (even by throwing at once) leaves
    // the plain heart and never the page broken.
    void Promise.resolve()
      .then(() => Promise.all([app.flows.favorite(), app.flows.favoriteIds(), loadHeartButton()]))
      .then(([machine, ids, { HeartButton }]) => {
        const input = { blueprintId, favorited: ids.has(blueprintId), signedIn: userId !== null };
        setReady({ machine, input, userId, Heart: HeartButton });
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
  const { Heart } = ready;
  return (
    <Heart
      key={`${blueprintId}:${ready.userId}`}
      machine={ready.machine}
      input={ready.input}
      pressAtStart={ready.userId === null}
    />
  );
}
