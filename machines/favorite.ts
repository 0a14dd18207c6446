import { assign, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { type ApiErrorBody, errorMessage, toErrorBody } from '#domain/errors';
import { type ButtonProps, buttonProps } from './props';

/**
 * The heart on an item card and the item page: a signed-in user saves the item to their favorites or
 * removes it. The heart turns at once (optimistic) while the server saves it; if saving fails it turns
 * back and says why, and a press tries again. A visitor's press asks them to sign in and saves
 * nothing. While a save runs, the heart takes no press.
 */
export interface FavoriteInput {
  blueprintId: string;
  /** Saved already (the user's favorite ids, read once). */
  favorited: boolean;
  signedIn: boolean;
}
export interface FavoriteContext extends FavoriteInput {
  /** What the server holds: the heart turns back to it when a save fails. */
  saved: boolean;
  error: ApiErrorBody | null;
}
export type FavoriteEvent = { type: 'favorite.toggle' };

export const favoriteMachine = setup({
  types: {
    context: {} as FavoriteContext,
    events: {} as FavoriteEvent,
    input: {} as FavoriteInput,
    tags: {} as 'busy',
  },
  actors: {
    /** PUT (favorited) or DELETE users/me/favorites/{blueprintId}. */
    saveFavorite: fromPromise<unknown, { blueprintId: string; favorited: boolean }>(async () => {
      throw new Error('saveFavorite not provided');
    }),
  },
  actions: {
    /** Opens the sign-in prompt (the ui machine's sign-up sheet). */
    promptSignIn: () => {},
    /** Tells the app's list of favorite ids what the server now holds. */
    announceSaved: (_, _params: { blueprintId: string; favorited: boolean }) => {},
  },
  guards: {
    signedIn: ({ context }) => context.signedIn,
  },
}).createMachine({
  id: 'favorite',
  context: ({ input }) => ({ ...input, saved: input.favorited, error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'favorite.toggle': [
          {
            guard: 'signedIn',
            target: 'saving',
            actions: assign({ favorited: ({ context }) => !context.favorited, error: null }),
          },
          { actions: 'promptSignIn' },
        ],
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveFavorite',
        src: 'saveFavorite',
        input: ({ context }) => ({ blueprintId: context.blueprintId, favorited: context.favorited }),
        onDone: {
          target: 'idle',
          actions: [
            assign({ saved: ({ context }) => context.favorited }),
            {
              type: 'announceSaved',
              params: ({ context }) => ({ blueprintId: context.blueprintId, favorited: context.favorited }),
            },
          ],
        },
        onError: {
          target: 'error',
          actions: assign({
            favorited: ({ context }) => context.saved,
            error: ({ event }) => toErrorBody(event.error),
          }),
        },
      },
    },
    /** The heart shows what the server holds, with why saving failed; a press tries again. */
    error: {
      on: {
        'favorite.toggle': {
          target: 'saving',
          actions: assign({ favorited: ({ context }) => !context.favorited, error: null }),
        },
      },
    },
  },
});

/** What the heart shows. */
export interface FavoriteView {
  favorited: boolean;
  busy: boolean;
  /** Its accessible name: what a press does. */
  label: string;
  error: string | null;
  /** The heart: a toggle button (aria-pressed while saved). */
  getHeartButtonProps: () => ButtonProps & { 'aria-pressed': boolean; 'aria-label': string };
}

export function connectFavorite(
  snapshot: SnapshotFrom<typeof favoriteMachine>,
  send: (event: FavoriteEvent) => void,
): FavoriteView {
  const { favorited, error } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  const label = favorited ? 'Remove from favorites' : 'Save to favorites';
  return {
    favorited,
    busy,
    label,
    error: error ? errorMessage(error) : null,
    getHeartButtonProps: () => ({
      ...buttonProps({ onClick: () => send({ type: 'favorite.toggle' }), disabled: false, busy }),
      'aria-pressed': favorited,
      'aria-label': label,
    }),
  };
}
