import { useActorRef, useSelector } from '@xstate/react';
import { useContext, useEffect } from 'react';
import type { ActorRefFrom } from 'xstate';
import { connectFavorite, type FavoriteInput, type favoriteMachine } from '../../../machines/favorite';
import { AppContext } from '../AppContext';
import { HeartIcon } from './HeartIcon';

/** The working heart (FavoriteHeart loads it with its machine): a visitor's first press is sent at once. */
export function HeartButton({
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
