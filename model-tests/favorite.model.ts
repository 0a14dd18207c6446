import { expect } from 'vitest';
import { connectFavorite, favoriteMachine } from '../machines/favorite';
import { after, expectCalled, expectNotCalled, expectWorking, inputsOf } from './expect';
import type { MachineModel, Observed } from './harness';

type O = Observed<typeof favoriteMachine>;
const view = (o: O) => connectFavorite(o.snapshot, () => {});
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

export const favoriteModel: MachineModel<typeof favoriteMachine> = {
  machine: favoriteMachine,
  fakes: ['saveFavorite'],
  scenarios: [
    { name: 'a signed-in user, not saved yet', input: { blueprintId: ID, favorited: false, signedIn: true } },
    { name: 'a signed-in user, saved already', input: { blueprintId: ID, favorited: true, signedIn: true } },
    { name: 'a visitor', input: { blueprintId: ID, favorited: false, signedIn: false } },
  ],
  events: () => [
    { type: 'favorite.toggle' },
    { type: 'xstate.done.actor.saveFavorite', output: undefined },
    { type: 'xstate.error.actor.saveFavorite', error: { code: 'NETWORK_FAILURE' } },
  ],
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.favorited, s.context.saved, s.context.signedIn, !!s.context.error]),
  expect: {
    // At rest the heart shows what the server holds; a press is always possible.
    idle: (o: O) => {
      expect(view(o)).toMatchObject({ busy: false, error: null, favorited: o.snapshot.context.saved });
      expect(view(o).getHeartButtonProps()).toMatchObject({
        disabled: false,
        'aria-pressed': o.snapshot.context.saved,
        'aria-label': o.snapshot.context.saved ? 'Remove from favorites' : 'Save to favorites',
      });
      // A visitor's press saves nothing and changes nothing (the sign-in prompt opens instead).
      if (!o.snapshot.context.signedIn) {
        expectNotCalled(o, 'saveFavorite');
        expect(view(o).favorited).toBe(false);
      }
      if (after(o, 'done', 'saveFavorite')) expect(o.snapshot.context.saved).toBe(o.before.context.favorited);
    },
    // The heart turns at once, and the server is asked for exactly that.
    saving: (o: O) => {
      expect(o.snapshot.context.signedIn).toBe(true);
      expect(view(o).favorited).toBe(!o.before.context.favorited);
      expectWorking(o, 'saveFavorite', { blueprintId: ID, favorited: view(o).favorited });
      expect(view(o)).toMatchObject({ busy: true, error: null });
      expect(view(o).getHeartButtonProps()).toMatchObject({ disabled: true, 'aria-busy': true });
    },
    // A failed save turns the heart back to what the server holds and says why.
    error: (o: O) => {
      expectCalled(o, 'saveFavorite');
      expect(view(o).favorited).toBe(o.snapshot.context.saved);
      expect(view(o).favorited).toBe(
        !inputsOf(o, 'saveFavorite')
          .map((i) => (i as { favorited: boolean }).favorited)
          .at(-1),
      );
      expect(view(o).error).toBeTruthy();
      expect(view(o).getHeartButtonProps().disabled).toBe(false);
    },
  },
};
